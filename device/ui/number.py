"""A number set with the buttons: tens first, then units, each with UP/DOWN.

One press is one step of one digit, and a digit goes round (DOWN from 0 is 9),
so no digit is more than five presses away: any number from 0 to 99 is at most
5 + SELECT + 5 + SELECT = 12 presses from any other. A held UP or DOWN repeats
faster and faster (hardware.buttons), each repeat one more step. A number below
10 has one digit to set. Only numbers in the range can be shown: the tens go
round the tens the range has, the units round the units the tens allow.

    picker = NumberPicker(range(100), 0)
    picker.press("up"); picker.press("select")      # tens: 1
    picker.press("down"); picker.press("select")    # units: 9 -> DONE, picker.value == 19
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

DONE, LEFT = "done", "left"      # what a press did besides a step: the number is set / given up


class NumberPicker:
    def __init__(self, values: range, value: int) -> None:
        if not values:
            raise ValueError("a number picker needs at least one value")
        self.values = values
        self.value = min(max(value, values[0]), values[-1])
        self.place = 10 if values[-1] >= 10 else 1     # the digit UP/DOWN set now

    def press(self, name: str) -> str | None:
        """A button: UP/DOWN step the digit; SELECT goes to the units, or sets the number
        (DONE); BACK goes back to the tens, or gives up (LEFT). The value stays as shown."""
        if name in ("up", "down"):
            self.step(1 if name == "up" else -1)
        elif name == "select":
            if self.place == 1:
                return DONE
            self.place = 1
        elif name == "back":
            if self.place == 1 and self.values[-1] >= 10:
                self.place = 10
                return None
            return LEFT
        return None

    def step(self, delta: int) -> None:
        """One digit one step, round the digits the range allows; the other digit kept where
        the range lets it be."""
        tens, units = divmod(self.value, 10)
        if self.place == 1:
            choices = _units(self.values, tens)
            now = units
        else:
            choices = _tens(self.values)
            now = tens
        digit = choices[(choices.index(now) + delta) % len(choices)]
        if self.place == 1:
            self.value = tens * 10 + digit
        else:
            self.value = digit * 10 + min(_units(self.values, digit),
                                          key=lambda unit: abs(unit - units))

    def presses_to(self, target: int) -> list[str]:
        """The fewest presses from here that set `target`."""
        if target not in self.values:
            raise ValueError(f"{target} is not a number from {self.values[0]} to {self.values[-1]}")
        return list(_fewest_presses(self.values, self.value, self.place)[target])

    def fewest_presses(self) -> dict[int, list[str]]:
        """For each number, the fewest presses from here that set it."""
        return {value: list(presses) for value, presses
                in _fewest_presses(self.values, self.value, self.place).items()}

    def shown(self) -> str:
        """The number with the digit being set in brackets: `[4]7`, `4[7]`, `[5]`."""
        text = str(self.value).rjust(2 if self.values[-1] >= 10 else 1, "0")
        if self.place == 10:
            return f"[{text[0]}]{text[1:]}"
        return f"{text[:-1]}[{text[-1]}]"


# A picker's digits depend on its range alone: worked out once per range, not at each press
# (a search for the fewest presses makes hundreds).

@lru_cache(maxsize=256)
def _tens(values: range) -> tuple[int, ...]:
    return tuple(sorted({v // 10 for v in values}))


@lru_cache(maxsize=1024)
def _units(values: range, tens: int) -> tuple[int, ...]:
    """The units the range allows after `tens`, in its order."""
    return tuple(v % 10 for v in values if v // 10 == tens)


@lru_cache(maxsize=256)
def _fewest_presses(values: range, value: int, place: int) -> dict[int, tuple[str, ...]]:
    """For each number, the fewest presses that set it from `value` with `place` being set:
    every button tried on copies of a picker, breadth first (at most 200 places to be: a
    digit and a value). Kept per start: the bench asks it at each number it sends."""
    start = NumberPicker(values, value)
    start.place = place
    seen = {(value, place)}
    queue: deque[tuple[NumberPicker, tuple[str, ...]]] = deque([(start, ())])
    found: dict[int, tuple[str, ...]] = {}
    while queue:
        picker, presses = queue.popleft()
        for name in ("up", "down", "select", "back"):
            after = NumberPicker(values, picker.value)
            after.place = picker.place
            if after.press(name) == DONE:
                found.setdefault(after.value, presses + (name,))
            elif (after.value, after.place) not in seen:
                seen.add((after.value, after.place))
                queue.append((after, presses + (name,)))
    return found
