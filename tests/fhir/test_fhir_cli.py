"""``anonymed deid-fhir`` end to end: exit codes, manifest, failures, profile errors."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path

from fhir_support import SYNTHEA
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.fhir import MANIFEST

runner = CliRunner()


def copy_with_a_bad_line(tmp_path: Path) -> Path:
    source = tmp_path / "in"
    shutil.copytree(SYNTHEA, source)
    with (source / "Condition.000.ndjson").open("a") as handle:
        handle.write('{"resourceType": "Condition", "id": \n')  # malformed
    return source


def test_cli_writes_the_layout_and_the_manifest(tmp_path: Path) -> None:
    key = tmp_path / "key.bin"
    key.write_bytes(b"0123456789abcdef0123")
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        ["deid-fhir", str(SYNTHEA), "-o", str(out), "--patient-key-file", str(key), "--seed", "1",
         "--no-text", "--no-progress", "--summary", str(tmp_path / "run.json")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [p.name for p in SYNTHEA.glob("*.ndjson")] + [MANIFEST]
    )
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["keyed"] and manifest["seeded"] and not manifest["text_pass"]
    assert manifest["attachments"] == {"unprocessed: text pass disabled": 31}
    assert json.loads((tmp_path / "run.json").read_text()) == manifest


def test_failed_records_are_reported_and_set_the_exit_code(tmp_path: Path) -> None:
    source, out = copy_with_a_bad_line(tmp_path), tmp_path / "out"
    base = ["deid-fhir", str(source), "-o", str(out), "--no-text", "--no-progress"]
    strict = runner.invoke(app, [*base, "--max-failures", "0"])
    assert strict.exit_code == 3  # as deid: too many failed records
    assert "1 of 159 records failed (more than --max-failures 0 allows" in strict.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["failures"] == [{"file": "Condition.000.ndjson", "line": 8, "reason": "malformed JSON"}]
    default = runner.invoke(app, base)  # --max-failures 1%, as every corpus command: 1 of 159 is within
    assert default.exit_code == 0 and "within --max-failures 1%" in default.output
    assert runner.invoke(app, [*base, "--max-failures", "1"]).exit_code == 0  # a count, as for deid
    assert runner.invoke(app, [*base, "--max-failures", "0.5%"]).exit_code == 3
    bad = runner.invoke(app, [*base, "--max-failures", "0.01"])
    assert bad.exit_code == 2 and "--max-failures expects a count" in bad.output


def test_the_earlier_max_failed_fraction_still_works_and_warns(tmp_path: Path) -> None:
    source, out = copy_with_a_bad_line(tmp_path), tmp_path / "out"
    base = ["deid-fhir", str(source), "-o", str(out), "--no-text", "--no-progress"]
    tolerant = runner.invoke(app, [*base, "--max-failed", "0.01"])
    assert tolerant.exit_code == 0
    assert "--max-failed is deprecated: use --max-failures 1%" in tolerant.output
    assert runner.invoke(app, [*base, "--max-failed", "0"]).exit_code == 3
    assert "--max-failed" not in runner.invoke(app, ["deid-fhir", "--help"]).output  # hidden


def test_profile_errors_are_clean(tmp_path: Path) -> None:
    base = ["deid-fhir", str(SYNTHEA), "-o", str(tmp_path / "o"), "--no-progress"]
    unknown = runner.invoke(app, [*base, "--profile", "nope"])
    assert unknown.exit_code == 2 and "unknown profile 'nope'" in unknown.output
    dp_claims = runner.invoke(app, [*base, "--profile", "dp", "--rules", str(safe_harbor_table(tmp_path))])
    assert dp_claims.exit_code == 2 and "claims Safe Harbor" in dp_claims.output  # the notes' DP operators
    shifted = runner.invoke(app, [*base, "--profile", "hipaa-safe-harbor", "--operator", "DATE=date_shift"])
    assert shifted.exit_code == 2 and "claims Safe Harbor" in shifted.output
    assert not (tmp_path / "o").exists()


def safe_harbor_table(tmp_path: Path) -> Path:
    """The shipped Safe Harbor table renamed for the dp profile (its structured rules are Safe Harbor's)."""
    shipped = files("anonymed").joinpath("resources", "fhir", "hipaa-safe-harbor.toml").read_text("utf-8")
    table = tmp_path / "dp-safe-harbor.toml"
    table.write_text(shipped.replace('name = "hipaa-safe-harbor"', 'name = "dp"'), encoding="utf-8")
    return table


def test_the_profile_comes_from_the_option_or_the_configuration_file(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[pipeline]\nprofile = "hipaa-safe-harbor"\n')
    for args in (["--config", str(config)], ["--profile", "hipaa-safe-harbor"]):
        out = tmp_path / args[0].strip("-")
        result = runner.invoke(
            app, ["deid-fhir", str(SYNTHEA), "-o", str(out), "--no-text", "--no-progress", *args]
        )
        assert result.exit_code == 0, result.output
        manifest = json.loads((out / MANIFEST).read_text())
        assert manifest["profile"] == "hipaa-safe-harbor" and manifest["safe_harbor_claimed"]


def test_a_table_of_your_own_for_the_dp_profile(tmp_path: Path) -> None:
    shipped = files("anonymed").joinpath("resources", "fhir", "pseudonymise.toml").read_text("utf-8")
    table = tmp_path / "dp.toml"
    table.write_text(shipped.replace('name = "pseudonymise"', 'name = "dp"'), encoding="utf-8")
    out = tmp_path / "out"
    args = ["deid-fhir", str(SYNTHEA), "-o", str(out), "--no-text", "--no-progress", "--rules", str(table)]
    refused = runner.invoke(app, args)  # the table belongs to dp, the run's profile is the default
    assert refused.exit_code == 2 and "--profile dp" in refused.output
    result = runner.invoke(app, [*args, "--profile", "dp"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / MANIFEST).read_text())["profile"] == "dp"


def test_profile_dp_chooses_the_shipped_dp_table(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["deid-fhir", str(SYNTHEA), "-o", str(out), "--no-text", "--no-progress", "--profile", "dp"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["profile"] == "dp" and manifest["safe_harbor_claimed"] is False
    assert manifest["dates"].startswith("structured: year only")
    assert manifest["differential_privacy"]["notes"] == {
        "DATE": "dp_date",
        "AGE": "dp_age",
        "LOCATION": "dp_location",
    }
    assert "no differential-privacy guarantee" in manifest["differential_privacy"]["structured_elements"]
    assert manifest["removed_unknown_elements"] == {}
