"""The HTTP contract: what a client may send and will get back, and the document that says so.

- :mod:`service.contract.schemas`: the platform's bodies as marshmallow schemas;
  :mod:`service.contract.push`: those of Web Push.
- :mod:`service.contract.openapi`: the OpenAPI document (problem details as the error type).
- :mod:`service.contract.document`: the rules applied to the whole document (3.1 types, required
  answer fields, headers, bounds), so every operation gets them.
- :mod:`service.contract.links`: OpenAPI links from a new game to its state, actions and moves.
- :mod:`service.contract.pagination`: paged lists' `X-Pagination` and RFC 8288 `Link` headers.
- :mod:`service.contract.game_schemas`: each game's JSON Schemas as components of the document.
- :mod:`service.contract.validation`: bodies checked against those schemas before the rules see them.
- :mod:`service.contract.bodies`: the busiest bodies read and written without a schema walk.
- :mod:`service.contract.problems`: every error as RFC 9457 problem details.
- :mod:`service.contract.problem_types`: each problem type, documented at ``/problems/<slug>``.
"""
