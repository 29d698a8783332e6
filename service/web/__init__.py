"""The browser client: :mod:`service.web.pages` serves ``/`` and the ES modules, CSS and board
renderers beside it (``boards/<game>.js``), loaded as they are: no build step, no CDN; the service
worker ``sw.js`` shows Web Push messages with no tab open (``push.js`` subscribes).
:mod:`service.web.problem_pages` serves the page each problem ``type`` names (``/problems/<slug>``)."""
