"""Calls to the Redis index that survive a lost connection, and never count twice.

A call whose reply was lost may or may not have run: retried blindly, a
claim or a DECIDE that did run would find its own additions and drop its
page as a copy of itself. So every script that adds runs behind a short
Lua prelude (``once``): it first compares the index's generation with the
one the caller opened (``DedupKeys.generation``; a Redis restarted empty has
none, or a new one, and the call is refused with ``LOST``), then looks up
the owner's last call; when its number is this one's, the stored answer is
returned and nothing runs again. Otherwise the script runs and its answer
is stored with the number, in the same atomic call.

The prelude also refuses (``HANDED``) every call of an owner whose
uncommitted work another process took over (``HANDED_FIELD`` in its calls
hash, set by ``RedisIndex.abandon``): a crawl process taken for dead while
it was only stalled must not add, after the others released its entries,
what would make their redone pages duplicates.

``Caller.run`` retries a call on a connection error or time-out, pausing
between tries, until ``retry_seconds`` have passed since the first failure;
then it raises ``IndexUnavailableError`` with one line. redis-py's own
retries are switched off (``client``): they would reconnect and resend
without the generation check above ever knowing.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from corpusbot.dedup.backends import IndexHandedOverError, IndexLostError, IndexUnavailableError

logger = logging.getLogger(__name__)

RETRY_SECONDS_DEFAULT = 60.0
"""How long a run waits for a Redis index that stopped answering before it stops (exit 2:
run again to continue). Longer than a restart of Redis (a few seconds), short enough that
a crawl or archive run does not hang unnoticed. Set ``?retry_seconds=`` in the URL."""
PAUSE_SECONDS = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Pauses between tries: short at first (a blip), then every 2 s."""
LOST = "CORPUSBOT_INDEX_LOST"
HANDED = "CORPUSBOT_HANDED_OVER"
HANDED_FIELD = "h"
"""The field of an owner's calls hash that marks its uncommitted work as taken over."""
HANDED_OVER = (
    "another process took this one for dead (silent past its heartbeat: stopped, swapping, "
    "a frozen machine) and handed the pages it had not committed to the others: stopped at "
    "its last commit without them; run it again to go on")

_PRELUDE = """
local outer = ARGV
if redis.call("GET", outer[3]) ~= outer[4] then return redis.error_reply("LOST") end
-- "h": HANDED_FIELD
if redis.call("HEXISTS", outer[1], "h") == 1 then return redis.error_reply("HANDED") end
if redis.call("HGET", outer[1], "n") == outer[2] then
  return cjson.decode(redis.call("HGET", outer[1], "a"))
end
local ARGV = {}
for i = 5, #outer do ARGV[i - 4] = outer[i] end
local function body()
BODY
end
local answer = body()
redis.call("HSET", outer[1], "n", outer[2], "a", cjson.encode(answer))
return answer
"""
"""ARGV: the owner's calls hash, this call's number, the generation key and the generation
the caller opened; then the script's own arguments, which it sees as its ARGV."""

T = TypeVar("T")


def once(script: str) -> str:
    """``script`` behind the generation check and the answer store (module docstring)."""
    return _PRELUDE.replace("LOST", LOST).replace("HANDED", HANDED).replace("BODY", script)


def client(url: str) -> Any:
    """A redis-py client of ``url`` that does not retry by itself."""
    import redis  # optional extra: corpusbot[redis]  # noqa: PLC0415
    from redis.backoff import NoBackoff  # noqa: PLC0415
    from redis.retry import Retry  # noqa: PLC0415

    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0))


class Caller:
    """Runs calls against one Redis index for one owner; see the module docstring."""

    __slots__ = ("_number", "_session", "calls", "generation", "generation_key", "retry_seconds",
                 "url")

    def __init__(self, url: str, calls: str, generation_key: str, generation: str,
                 retry_seconds: float) -> None:
        self.url, self.calls = url, calls
        self.generation_key, self.generation = generation_key, generation
        self.retry_seconds = retry_seconds
        self._session = uuid.uuid4().hex[:12]  # call numbers of another process never match
        self._number = 0

    def script(self, script: Any, args: Sequence[Any]) -> Any:
        """Run a script wrapped by ``once``, exactly once however often it is retried."""
        self._number += 1
        head = [self.calls, f"{self._session}:{self._number}", self.generation_key,
                self.generation]
        return self.run(lambda: script(args=[*head, *args]))

    def run(self, call: Callable[[], T], *, retry: bool = True) -> T:
        """``call()``, retried on connection errors for ``retry_seconds`` (or not at all)."""
        import redis  # noqa: PLC0415

        deadline = None if retry else time.monotonic()
        for attempt in range(1_000_000):
            try:
                return call()
            except redis.ResponseError as error:
                if LOST in str(error):
                    raise IndexLostError(LOST) from None
                if HANDED in str(error):
                    raise IndexHandedOverError(HANDED_OVER) from None
                raise
            except (redis.ConnectionError, redis.TimeoutError) as error:
                now = time.monotonic()
                deadline = deadline or now + self.retry_seconds
                if now >= deadline:
                    raise IndexUnavailableError(
                        f"the Redis dedup index at {self.url} did not answer for "
                        f"{self.retry_seconds:.0f} s ({error}); what was committed is safe: "
                        "run the same command again when it is back") from None
                if attempt == 0:
                    logger.warning("the Redis dedup index at %s stopped answering (%s); "
                                   "retrying for %.0f s", self.url, error, self.retry_seconds)
                time.sleep(PAUSE_SECONDS[min(attempt, len(PAUSE_SECONDS) - 1)])
        raise AssertionError("unreachable")
