"""The WSGI entry point for gunicorn: ``gunicorn service.wsgi:app``."""

import gc
import resource

from service.app import create_app
from service.contract.problems import answer_gunicorn_errors_as_problems
from service.server import greenwait


def _more_open_files() -> None:
    """Every open stream is a socket: take all the descriptors the system allows us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


#: Allocations between two collections of the youngest objects (CPython's default is 700). A
#: command allocates thousands that die young; collecting less often also makes the full
#: collections, which walk every cached state, much rarer (figures: docs/performance.md, "The
#: garbage collector").
YOUNG_COLLECTIONS = 7000


def _spare_the_collector() -> None:
    """Keep the cyclic garbage collector's full sweeps short and rare.

    What start-up made (modules, schemas, routes) lives as long as the process, yet every full
    collection walked it again, a pause in the middle of some request that made the paced bench's
    p99 (figures: docs/performance.md, "The garbage collector"). Frozen, it is never walked; the
    rest still is.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTIONS, *gc.get_threshold()[1:])


_more_open_files()
greenwait.install()
answer_gunicorn_errors_as_problems()
app = create_app()
_spare_the_collector()
