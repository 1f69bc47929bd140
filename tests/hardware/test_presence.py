"""Presence on scripted poll sequences, with a hand-driven clock."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.events import Placed, Removed
from hardware.presence import Presence

A, B = "04A22B91", "04112233445566"


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def run(presence, polls, clock=None, step=0.05):
    events = []
    for uid in polls:
        events += presence.update(uid)
        if clock is not None:
            clock.now += step
    return events


def test_a_card_held_on_the_reader_is_one_tap():
    assert run(Presence(), [A] * 50) == [Placed(A)]


def test_missed_polls_below_the_hysteresis_are_not_a_removal():
    polls = [A, None, A, None, None, A, None, None, A]
    assert run(Presence(misses=3), polls) == [Placed(A)]


def test_k_misses_in_a_row_remove_the_card():
    assert run(Presence(misses=3), [A, None, None, None]) == [Placed(A), Removed(A)]
    assert run(Presence(misses=1), [A, None]) == [Placed(A), Removed(A)]


def test_lifting_and_replacing_after_the_debounce_is_a_new_tap():
    clock = Clock()
    presence = Presence(misses=2, debounce_ms=1500, clock=clock)
    events = run(presence, [A, None, None] + [None] * 30 + [A], clock)   # 1.6 s away
    assert events == [Placed(A), Removed(A), Placed(A)]


def test_replacing_the_same_card_within_the_debounce_is_dropped():
    clock = Clock()
    presence = Presence(misses=2, debounce_ms=1500, clock=clock)
    events = run(presence, [A, None, None, None, A, A, None, None], clock)
    assert events == [Placed(A), Removed(A)]      # neither the bounce nor its end is reported


def test_the_debounce_counts_from_when_the_card_left_not_from_the_confirmation():
    clock = Clock()
    presence = Presence(misses=3, debounce_ms=120, clock=clock)
    assert run(presence, [A], clock) == [Placed(A)]                  # seen at 100.00
    assert run(presence, [None, None, None], clock) == [Removed(A)]  # gone at 100.05, told at 100.15
    assert presence.update(A) == [Placed(A)]                         # 100.20: 150 ms after it left


def test_another_card_is_a_tap_even_inside_the_debounce():
    clock = Clock()
    presence = Presence(misses=2, clock=clock)
    assert run(presence, [A, None, None, B], clock) == [Placed(A), Removed(A), Placed(B)]


def test_a_swap_without_a_gap_removes_the_first_card():
    assert run(Presence(), [A, B]) == [Placed(A), Removed(A), Placed(B)]


@given(st.lists(st.sampled_from([A, B, None]), max_size=80),
       st.integers(min_value=1, max_value=4), st.integers(min_value=0, max_value=400))
def test_events_alternate_and_pair_up(polls, misses, debounce_ms):
    clock = Clock()
    presence = Presence(misses=misses, debounce_ms=debounce_ms, clock=clock)
    on_reader = None
    for event in run(presence, polls, clock):
        if isinstance(event, Placed):
            assert on_reader is None
            on_reader = event.uid
        else:
            assert event.uid == on_reader
            on_reader = None


def test_a_reader_alternating_between_two_cards_gives_one_tap_per_card():
    clock = Clock()
    presence = Presence(misses=3, clock=clock)
    events = run(presence, [A, B] * 20, clock)
    assert [event for event in events if isinstance(event, Placed)] == [Placed(A), Placed(B)]


def test_every_card_recently_on_the_reader_is_remembered():
    clock = Clock()
    presence = Presence(misses=1, debounce_ms=1500, clock=clock)
    events = run(presence, [A, B, "04C0FFEE", A, B, "04C0FFEE"], clock)
    assert [e for e in events if isinstance(e, Placed)] == [Placed(A), Placed(B), Placed("04C0FFEE")]


def see(presence, polls, clock, step=0.05):
    events = []
    for uids in polls:
        events += presence.see(uids)
        clock.now += step
    return events


def test_a_card_laid_next_to_a_resting_one_is_a_tap_of_the_new_card_only():
    clock = Clock()
    presence = Presence(misses=3, clock=clock)
    events = see(presence, [(A,)] * 5 + [(A, B)] * 5 + [(A,)] * 5, clock)
    assert events == [Placed(A), Placed(B), Removed(B)]
    assert presence.cards == (A,)


def test_each_card_has_its_own_hysteresis():
    clock = Clock()
    presence = Presence(misses=3, clock=clock)
    polls = [(A, B), (B,), (A,), (A, B), (B,), (B,), (B,)]
    assert see(presence, polls, clock) == [Placed(A), Placed(B), Removed(A)]


@given(st.lists(st.sets(st.sampled_from([A, B, "04C0FFEE"])), max_size=80),
       st.integers(min_value=1, max_value=4), st.integers(min_value=0, max_value=400))
def test_each_cards_events_alternate_when_several_are_seen(polls, misses, debounce_ms):
    clock = Clock()
    presence = Presence(misses=misses, debounce_ms=debounce_ms, clock=clock)
    on_reader: set[str] = set()
    for event in see(presence, [sorted(uids) for uids in polls], clock):
        if isinstance(event, Placed):
            assert event.uid not in on_reader
            on_reader.add(event.uid)
        else:
            assert event.uid in on_reader
            on_reader.remove(event.uid)
    assert on_reader <= set(presence.cards)
