"""A pydantic 2 facade over Debian's pydantic 1.10 (python3-pydantic), for the site-agent harness only.

The site agent (waldur-site-agent 1.0.6rc17) is written for pydantic 2; bookworm ships 1.10.4 and PyPI is
not reachable. This package is named ``pydantic`` and puts Debian's pydantic directory on its own
``__path__``, so ``pydantic.main``, ``pydantic.fields`` … are Debian's modules under their real names. On
top it offers the part of the v2 API the agent uses: ``ConfigDict``, ``model_config``, ``field_validator``,
``model_validator``, ``model_dump``/``model_dump_json``/``model_validate``/``model_copy``/``model_fields``.
"""

import json as _json
import os as _os
from typing import ClassVar as _ClassVar

_DEBIAN = "/usr/lib/python3/dist-packages/pydantic"
if not _os.path.isdir(_DEBIAN):
    raise ImportError("the pydantic facade needs Debian's python3-pydantic (apt-get install python3-pydantic)")
__path__.append(_DEBIAN)  # noqa: F821 - set by the import system for packages

from pydantic import dataclasses  # noqa: E402
from pydantic.class_validators import root_validator, validator  # noqa: E402
from pydantic.config import BaseConfig, Extra  # noqa: E402
from pydantic.error_wrappers import ValidationError  # noqa: E402
from pydantic.errors import *  # noqa: E402,F403
from pydantic.fields import Field, PrivateAttr, Required  # noqa: E402
from pydantic.main import BaseModel as _V1BaseModel  # noqa: E402
from pydantic.main import ModelMetaclass as _V1ModelMetaclass  # noqa: E402
from pydantic.main import create_model, validate_model  # noqa: E402
from pydantic.networks import *  # noqa: E402,F403
from pydantic.tools import *  # noqa: E402,F403
from pydantic.types import *  # noqa: E402,F403
from pydantic.version import VERSION as _V1_VERSION  # noqa: E402

VERSION = f"2.0-facade-over-{_V1_VERSION}"
__version__ = VERSION


def ConfigDict(**kwargs):  # noqa: N802 - pydantic 2's name
    """pydantic 2's ConfigDict is a TypedDict; a plain dict is enough here."""
    return dict(kwargs)


_V2_CONFIG_TO_V1 = {
    "populate_by_name": "allow_population_by_field_name",
    "from_attributes": "orm_mode",
    "validate_default": "validate_all",
    "str_strip_whitespace": "anystr_strip_whitespace",
    "frozen": "frozen",
}


class _ModelMetaclass(_V1ModelMetaclass):
    def __new__(mcs, name, bases, namespace, **kwargs):  # noqa: N804
        config = namespace.pop("model_config", None)
        if config:
            attrs = {_V2_CONFIG_TO_V1.get(key, key): value for key, value in dict(config).items()}
            attrs.setdefault("arbitrary_types_allowed", True)
            namespace["Config"] = type("Config", (), attrs)
        return super().__new__(mcs, name, bases, namespace, **kwargs)


def _classproperty_fields(cls):
    return cls.__fields__


class _ClassProperty:
    def __init__(self, getter):
        self.getter = getter

    def __get__(self, instance, owner):
        return self.getter(owner)


class BaseModel(_V1BaseModel, metaclass=_ModelMetaclass):
    """pydantic 1 BaseModel with pydantic 2's method names."""

    class Config:
        arbitrary_types_allowed = True

    model_fields: _ClassVar = _ClassProperty(_classproperty_fields)

    @property
    def model_fields_set(self):
        return self.__fields_set__

    def model_dump(self, *, mode="python", include=None, exclude=None, by_alias=False,
                   exclude_unset=False, exclude_defaults=False, exclude_none=False, **_ignored):
        kwargs = {"include": include, "exclude": exclude, "by_alias": by_alias, "exclude_unset": exclude_unset,
                  "exclude_defaults": exclude_defaults, "exclude_none": exclude_none}
        if mode == "json":
            return _json.loads(self.json(**kwargs))
        return self.dict(**kwargs)

    def model_dump_json(self, *, indent=None, include=None, exclude=None, by_alias=False,
                        exclude_unset=False, exclude_defaults=False, exclude_none=False, **_ignored):
        return self.json(indent=indent, include=include, exclude=exclude, by_alias=by_alias,
                         exclude_unset=exclude_unset, exclude_defaults=exclude_defaults, exclude_none=exclude_none)

    def model_copy(self, *, update=None, deep=False):
        return self.copy(update=update, deep=deep)

    @classmethod
    def model_validate(cls, obj, **_ignored):
        return cls.parse_obj(obj)

    @classmethod
    def model_validate_json(cls, data, **_ignored):
        return cls.parse_raw(data)

    @classmethod
    def model_construct(cls, _fields_set=None, **values):
        return cls.construct(_fields_set=_fields_set, **values)


def field_validator(*fields, mode="after", check_fields=None, **_ignored):
    """pydantic 2's field_validator as a v1 validator (the agent's validators take (cls, v))."""
    kwargs = {"pre": mode in ("before", "plain", "wrap"), "allow_reuse": True}
    if check_fields is not None:
        kwargs["check_fields"] = check_fields
    return validator(*fields, **kwargs)


def model_validator(*, mode):
    """pydantic 2's model_validator as a v1 root_validator.

    mode="after": the v2 validator is an instance method returning the model; it is run on a model built
    (without validation) from the validated values, and the values it ends with are kept.
    mode="before": the v2 validator is a classmethod taking and returning the raw data.
    """

    def decorate(function):
        if mode == "before":
            inner = function.__func__ if isinstance(function, classmethod) else function

            def before(cls, values):
                return inner(cls, values)

            before.__name__ = before.__qualname__ = f"_before_{inner.__name__}"
            return root_validator(pre=True, allow_reuse=True)(before)

        def after(cls, values):
            model = cls.construct(**values)
            result = function(model)
            model = model if result is None else result
            return {**values, **{name: getattr(model, name) for name in values if hasattr(model, name)}}

        after.__name__ = after.__qualname__ = f"_after_{function.__name__}"
        return root_validator(skip_on_failure=True, allow_reuse=True)(after)

    return decorate


class ValidationInfo:  # only for type hints in user code
    pass


class TypeAdapter:
    def __init__(self, type_):
        self._model = create_model("TypeAdapterModel", value=(type_, ...))

    def validate_python(self, value):
        return self._model(value=value).value
