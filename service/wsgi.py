"""The WSGI entry point for gunicorn: ``gunicorn service.wsgi:app``."""

import resource

from service.app import create_app
from service.errors import answer_gunicorn_errors_as_problems


def _more_open_files() -> None:
    """Every open stream is a socket: take all the descriptors the system allows us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


_more_open_files()
answer_gunicorn_errors_as_problems()
app = create_app()
