"""The HIPAA-based label taxonomy and the mappings from corpus labels into it."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Final

from anonymed.errors import ConfigError, SpanError


class Label(StrEnum):
    """Top-level PHI categories."""

    NAME = "NAME"
    DATE = "DATE"
    AGE = "AGE"
    LOCATION = "LOCATION"
    ORGANIZATION = "ORGANIZATION"
    CONTACT = "CONTACT"
    ID = "ID"
    PROFESSION = "PROFESSION"
    OTHER = "OTHER"


SUBTYPES: Final = MappingProxyType(
    {
        Label.NAME: frozenset({"patient", "clinician", "relative"}),
        Label.DATE: frozenset({"time", "year", "birth"}),
        Label.AGE: frozenset({"over89"}),
        Label.LOCATION: frozenset({"city", "street", "zip", "hospital", "country", "state", "ip"}),
        Label.ORGANIZATION: frozenset(),
        Label.CONTACT: frozenset({"phone", "fax", "email", "url", "handle"}),
        # plan, license, vehicle, device: HIPAA Safe Harbor's kinds (I), (K), (L), (M)
        Label.ID: frozenset(
            {"mrn", "ssn", "nir", "account", "plan", "license", "vehicle", "device", "other"}
        ),
        Label.PROFESSION: frozenset(),
        Label.OTHER: frozenset(),
    }
)

LabelPair = tuple[Label, str | None]

#: PhysioNet deid gold categories (id-phi.phrase) -> (label, subtype)
PHYSIONET_LABELS: Final[MappingProxyType[str, LabelPair]] = MappingProxyType(
    {
        "PTName": (Label.NAME, "patient"),
        "PTNameInitial": (Label.NAME, "patient"),
        "HCPName": (Label.NAME, "clinician"),
        "RelativeProxyName": (Label.NAME, "relative"),
        "Date": (Label.DATE, None),
        "DateYear": (Label.DATE, "year"),
        "Age": (Label.AGE, "over89"),
        "Location": (Label.LOCATION, None),
        "Phone": (Label.CONTACT, "phone"),
        "Other": (Label.OTHER, None),
    }
)

#: EDS-pseudo labels -> (label, subtype)
EDS_PSEUDO_LABELS: Final[MappingProxyType[str, LabelPair]] = MappingProxyType(
    {
        "NOM": (Label.NAME, None),
        "PRENOM": (Label.NAME, None),
        "DATE": (Label.DATE, None),
        "DATE_NAISSANCE": (Label.DATE, "birth"),
        "TEL": (Label.CONTACT, "phone"),
        "MAIL": (Label.CONTACT, "email"),
        "SECU": (Label.ID, "nir"),
        "IPP": (Label.ID, "mrn"),
        "NDA": (Label.ID, "account"),
        "VILLE": (Label.LOCATION, "city"),
        "ADRESSE": (Label.LOCATION, "street"),
        "ADDRESSE": (Label.LOCATION, "street"),
        "ZIP": (Label.LOCATION, "zip"),
        "HOPITAL": (Label.LOCATION, "hospital"),
    }
)

#: Presidio synthetic data entity types -> (label, subtype)
PRESIDIO_LABELS: Final[MappingProxyType[str, LabelPair]] = MappingProxyType(
    {
        "PERSON": (Label.NAME, None),
        "STREET_ADDRESS": (Label.LOCATION, "street"),
        "GPE": (Label.LOCATION, "city"),
        "ORGANIZATION": (Label.ORGANIZATION, None),
        "CREDIT_CARD": (Label.ID, "account"),
        "DATE_TIME": (Label.DATE, None),
        "TITLE": (Label.PROFESSION, None),
        "PHONE_NUMBER": (Label.CONTACT, "phone"),
        "AGE": (Label.AGE, None),
        "NRP": (Label.OTHER, None),
        "EMAIL_ADDRESS": (Label.CONTACT, "email"),
        "ZIP_CODE": (Label.LOCATION, "zip"),
        "DOMAIN_NAME": (Label.CONTACT, "url"),
        "IBAN_CODE": (Label.ID, "account"),
        "US_SSN": (Label.ID, "ssn"),
        "IP_ADDRESS": (Label.LOCATION, "ip"),
        "US_DRIVER_LICENSE": (Label.ID, "license"),
    }
)


def parse_label(value: str) -> LabelPair:
    """Parse ``"NAME"`` or ``"NAME/patient"`` into a (label, subtype) pair, checking both."""
    head, _, sub = value.partition("/")
    try:
        label = Label(head.upper())
    except ValueError:
        raise SpanError(f"unknown label {value!r}; expected one of {[m.value for m in Label]}") from None
    subtype = sub.lower() or None
    if subtype is not None and subtype not in SUBTYPES[label]:
        raise SpanError(f"unknown subtype {subtype!r} for label {label.value}")
    return label, subtype


def label_key(name: str, where: str) -> Label:
    """The label a configuration key names, in any case (``"name"`` -> NAME); ``where`` names the option."""
    try:
        return Label(name.upper())
    except ValueError:
        known = [m.value for m in Label]
        raise ConfigError(f"unknown label {name!r} in {where}; known: {known}") from None
