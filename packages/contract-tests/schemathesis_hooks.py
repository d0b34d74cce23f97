# Schemathesis hooks of the contract tests (loaded through SCHEMATHESIS_HOOKS by the runner).
#
# A webhook URL aimed at the server under test makes that server POST every later event to its own routes, where
# each delivery fails and is retried for hours. Schemathesis finds such URLs in the answers it reads (every `links`
# value is one), so bodies of `PUT /sandbox/webhook` whose `url` has the origin of the server under test are not
# sent; any other URL, valid or not, still is. CONTRACT_SERVER_ORIGINS lists those origins, comma-separated.
#
# On Python 3.11 this file also keeps Schemathesis' worker threads from building syntax trees at the same time (below).
import __future__
import ast
import builtins
import functools
import operator
import os
import sys
import threading
from urllib.parse import urlsplit

import schemathesis


def _one_syntax_tree_at_a_time():
    """
    CPython 3.11 counts the depth of the syntax tree it is turning into Python objects in one place for the whole
    interpreter. A garbage collection in the middle of that can run a finalizer, and so let another thread run; when
    that thread builds a tree too, it resets the count, and one of the two fails with `SystemError: AST constructor
    recursion depth mismatch` (python/cpython#106905). Schemathesis' workers are threads that build trees all along:
    Hypothesis describes functions and lambdas from their source and rewrites filters with `ast`, and anyio's lazy
    importer parses its package on a worker's first request. So every tree is built under one lock, taken in
    `compile()`, which `ast.parse` and the others call. Python 3.12 collects garbage only between bytecodes and 3.13
    keeps the count per call: there nothing is changed.
    """
    if sys.version_info >= (3, 12):
        return
    original = builtins.compile
    lock = threading.RLock()
    future_flags = functools.reduce(operator.or_, (getattr(__future__, name).compiler_flag for name in __future__.all_feature_names))

    def compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **options):
        if not dont_inherit:
            # The `from __future__` imports of the caller, which compile() inherits from the frame that calls it.
            flags |= sys._getframe(1).f_code.co_flags & future_flags
        if not flags & ast.PyCF_ONLY_AST:
            return original(source, filename, mode, flags, True, optimize, **options)
        with lock:
            return original(source, filename, mode, flags, True, optimize, **options)

    builtins.compile = compile


_one_syntax_tree_at_a_time()

LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _origin(url):
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return ("loopback" if host in LOOPBACK else host, port)


SERVER_ORIGINS = {
    origin for origin in (_origin(url) for url in os.environ.get("CONTRACT_SERVER_ORIGINS", "").split(",") if url) if origin
}


@schemathesis.hook
def filter_body(context, body):
    operation = context.operation
    if operation is None or operation.method.upper() != "PUT" or operation.path != "/sandbox/webhook":
        return True
    url = body.get("url") if isinstance(body, dict) else None
    return not (isinstance(url, str) and _origin(url) in SERVER_ORIGINS)
