"""The page's watch (device/web/watch.py): each new frame wakes the streams once; the loop's
thread wakes the watch only once it has stopped looking by itself. Driven on an asyncio loop
turn by turn: no clock is waited on (the quiet time is made nothing)."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

from device.web import watch as watching
from device.web.desk import Frame
from device.web.watch import Watch


def frame(version: int) -> Frame:
    return Frame(version, None, {"version": version})


async def turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_each_new_frame_wakes_the_streams_once():
    async def scenario() -> None:
        desk = SimpleNamespace(latest=None)
        watch = Watch(desk)
        assert desk.on_change == watch.poke              # the desk tells it of each frame
        with watch.following():
            woken = watch.next
            await turns()                                 # its first look: nothing new
            assert not woken.done() and watch.looking
            desk.latest = frame(1)
            assert watch.look() and woken.done()
            again = watch.next
            assert not watch.look() and not again.done()  # the same frame: no wake
            watch.close()
            assert again.done() and watch.closing
    asyncio.run(scenario())


def test_a_quiet_watch_is_woken_by_the_loops_thread_and_only_then(monkeypatch):
    monkeypatch.setattr(watching, "QUIET_S", 0.0)
    pokes: list[None] = []

    async def scenario() -> None:
        desk = SimpleNamespace(latest=frame(1))
        watch = Watch(desk)
        assert not watch.looking
        watch.poke()                                      # no stream: nobody to wake
        with watch.following():
            woken = watch.next
            await turns()                                 # a look: the frame is new to it
            assert woken.done()
            assert not watch.looking                      # then quiet at once (no quiet time)
            desk.latest = frame(2)
            woken = watch.next
            watch.poke()                                  # the loop's frame: a wake...
            await turns()
            assert woken.done() and watch._seen == 2      # ...and a look at once
        await turns()
        assert not watch.streams
        real = watch._poked
        watch._poked = lambda: (pokes.append(None), real())
        watch.poke()                                      # no stream any more: no wake
        await turns()
        assert pokes == []
    asyncio.run(scenario())


def test_a_looking_watch_is_not_woken_from_the_loops_thread():
    pokes: list[None] = []

    async def scenario() -> None:
        desk = SimpleNamespace(latest=None)
        watch = Watch(desk)
        watch._poked = lambda: pokes.append(None)
        with watch.following():
            await turns()
            assert watch.looking                          # a stream just opened: it looks
            watch.poke()
            await turns()
            assert pokes == []
            watch.close()
    asyncio.run(scenario())


def test_a_frame_after_the_page_stopped_changes_nothing():
    """The page's loop gone (its server failed) while a stream was counted: the loop's frames
    go on, the watch's wake-up is dropped."""
    async def scenario() -> Watch:
        watch = Watch(SimpleNamespace(latest=None))
        watch.streams = 1                                 # as a stream the server's end cut off
        await turns()
        return watch
    watch = asyncio.run(scenario())                       # its loop is closed now
    watch.poke()
