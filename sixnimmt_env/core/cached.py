"""`cached_property` without functools' lock.

Python 3.11's `functools.cached_property` takes one lock per property, shared by every
instance in every thread, on each first read of each instance: a seat view (one per
agent decision, per table view) reads a dozen of them, so the web server's threads queued
on those locks and paid for them (a tenth of a table's work). Python 3.12 dropped the
lock (its docs: it gave no per-instance guarantee and serialized unrelated instances).
This one computes and stores the value in the instance's `__dict__`, where later reads
find it before the descriptor (a non-data descriptor). Two threads reading the same
instance's property for the first time at once may both compute it: the views' properties
are pure functions of the state, so both get the same value.
"""

from __future__ import annotations


class cached_property:  # noqa: N801 - a drop-in for functools.cached_property
    """A property computed once per instance (see the module doc)."""

    def __init__(self, func):
        self.func = func
        self.attrname: str | None = None
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__

    def __set_name__(self, owner, name: str) -> None:
        self.attrname = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value
