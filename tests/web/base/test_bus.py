"""The in-process event bus: per-match delivery, held events, slow subscribers dropped, shutdown."""

from __future__ import annotations

from jackpot.web.base.live.bus import CLOSED, EventBus


async def test_events_reach_only_that_matchs_subscribers() -> None:
    bus = EventBus()
    a, b = bus.subscribe("m_a"), bus.subscribe("m_b")
    await bus.publish("m_a", [{"seq": 1, "type": "thrown"}, {"seq": 2, "type": "covered"}])
    assert [a.queue.get_nowait()["seq"], a.queue.get_nowait()["seq"]] == [1, 2]
    assert b.queue.empty()
    a.close()
    b.close()
    assert bus.subscriber_count == 0


async def test_a_subscriber_that_falls_behind_is_closed_not_waited_for() -> None:
    bus = EventBus(queue_size=3)
    slow = bus.subscribe("m")
    await bus.publish("m", [{"seq": i, "type": "x"} for i in range(1, 6)])
    assert slow.queue.get_nowait() is CLOSED
    assert bus.subscriber_count == 0


async def test_shutdown_ends_every_stream() -> None:
    bus = EventBus()
    subs = [bus.subscribe("m") for _ in range(3)]
    bus.close_all()
    assert all(s.queue.get_nowait() is CLOSED for s in subs)


async def test_held_events_wait_aside_without_waking_the_queue() -> None:
    """A socket answering its own move holds its subscription: the move's events
    come back from ``release`` in order, after what was queued before, and whoever
    waits on the queue is not woken for them."""
    bus = EventBus()
    sub = bus.subscribe("m")
    await bus.publish("m", [{"seq": 1, "type": "thrown"}])
    sub.hold()
    await bus.publish("m", [{"seq": 2, "type": "covered"}, {"seq": 3, "type": "thrown"}])
    assert [sub.queue.get_nowait()["seq"]] == [1]
    assert sub.queue.empty()
    assert [ev["seq"] for ev in sub.release()] == [2, 3]
    assert sub.release() == []
    await bus.publish("m", [{"seq": 4, "type": "covered"}])  # released: queued again
    assert sub.queue.get_nowait()["seq"] == 4


async def test_a_held_subscriber_that_falls_behind_is_closed_too() -> None:
    bus = EventBus(queue_size=3)
    sub = bus.subscribe("m")
    sub.hold()
    await bus.publish("m", [{"seq": i, "type": "x"} for i in range(1, 6)])
    assert sub.release() == []
    assert sub.queue.get_nowait() is CLOSED
    assert bus.subscriber_count == 0
