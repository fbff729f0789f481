"""The seat views' `cached_property` (sixnimmt_env/core/cached.py): computed once per instance
as functools' is, without functools' (3.11) lock shared by every instance."""

from __future__ import annotations

import threading

from sixnimmt_env.core.cached import cached_property


class Counted:
    calls = 0

    def __init__(self, base: int):
        self.base = base

    @cached_property
    def doubled(self) -> int:
        """Twice the base."""
        Counted.calls += 1
        return 2 * self.base


def test_computed_once_per_instance_and_kept_apart():
    Counted.calls = 0
    a, b = Counted(1), Counted(5)
    assert (a.doubled, a.doubled, b.doubled, b.doubled) == (2, 2, 10, 10)
    assert Counted.calls == 2
    assert a.__dict__["doubled"] == 2  # stored on the instance: later reads skip the descriptor
    del a.doubled  # as with functools: deleting forgets the value, the next read computes it again
    assert a.doubled == 2 and Counted.calls == 3


def test_the_class_gives_the_descriptor_with_its_doc():
    assert isinstance(Counted.doubled, cached_property) and Counted.doubled.__doc__ == "Twice the base."


def test_no_lock_shared_between_instances():
    """functools' (3.11) held one lock per property across every instance: a first read
    waited for another instance's to finish. Here one instance's read in progress does not
    hold up another's (functools' would time out below)."""
    entered, release, done = threading.Event(), threading.Event(), threading.Event()

    class View:
        def __init__(self, slow: bool):
            self.slow = slow

        @cached_property
        def value(self) -> int:
            if self.slow:
                entered.set()
                release.wait(30)
            return 1

    slow = threading.Thread(target=lambda: View(True).value)
    slow.start()
    try:
        assert entered.wait(30)
        fast = threading.Thread(target=lambda: (View(False).value, done.set()))
        fast.start()
        assert done.wait(10), "a first read waited for another instance's"
        fast.join(10)
    finally:
        release.set()
        slow.join(30)
