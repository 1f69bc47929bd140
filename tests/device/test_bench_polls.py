"""The bench's poll rates run our reader loop on the chip model's clock: counted, not timed."""
from __future__ import annotations

from device.bench.polls import poll_rates, run_loop


def test_the_poll_rates_are_reported_for_one_two_and_five_cards():
    rates = poll_rates(20, 1.0)
    assert rates["poll_hz"] == 20 and set(rates) == {"poll_hz", "1", "2", "5"}
    # a lone card's poll fits twice over in 50 ms: the loop keeps its 20 a second
    assert rates["1"]["polls_per_s"] == 20 and rates["1"]["poll_ms"] < 25
    assert rates["1"]["poll_ms"] < rates["2"]["poll_ms"] < rates["5"]["poll_ms"]


def test_a_poll_that_does_not_fit_is_followed_by_the_next_at_once():
    timed = run_loop(5, poll_hz=100, seconds=1.0)
    # five cards take longer than 10 ms: back to back, as many as fit in the second
    assert abs(timed.polls - 1 / (timed.busy_s / timed.polls)) <= 1
