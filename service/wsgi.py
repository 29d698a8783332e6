"""The WSGI entry point for gunicorn: ``gunicorn service.wsgi:app``."""

import resource

from service.app import create_app


def _more_open_files() -> None:
    """Every open stream is a socket: take all the descriptors the system allows us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


_more_open_files()
app = create_app()
