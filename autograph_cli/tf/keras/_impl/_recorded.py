"""The arguments a Keras object was made with (what saving needs to make it again)."""


class RecordsInitArgs:
    """Base of the built-in Keras objects (initializers, losses, metrics,
    optimizers, schedules, regularizers, constraints): `__new__` records the
    constructor's arguments, which keras.saving serializes with the object."""

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        obj.__dict__["_keras_untracked_init_args"] = (args, kwargs)
        return obj
