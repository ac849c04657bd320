"""The lifetime of a library object held by a Python one (a plan, an RNS
context): freed by close(), at the end of a `with` block, or when
collected, under the lock that serializes the object's calls."""


class Owned:
    """Subclasses set self._handle (None until the C object exists, first
    thing in __init__), self._lock, and the C destructor as _destroy."""

    _handle = None

    @staticmethod
    def _destroy(handle):
        raise NotImplementedError

    def close(self):
        """Frees the C object.  Further calls raise InvalidArgumentError;
        closing twice is harmless."""
        if getattr(self, "_handle", None) is None:
            return
        with self._lock:
            handle, self._handle = self._handle, None
            if handle is not None:
                self._destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def closed(self):
        return self._handle is None
