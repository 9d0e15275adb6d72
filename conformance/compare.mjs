// compare.mjs judges one conformance run against the baseline.
//
//   node compare.mjs RESULTS_DIR REVISION BASELINE_YAML REQUIREMENTS_YAML
//
// RESULTS_DIR is the --output-dir of `conformance server --requirements
// REVISION`: one server-<scenario>-<timestamp>/checks.json per scenario. A
// scenario passes when at least one of its checks has status SUCCESS and
// none has FAILURE (warnings do not fail). It fails when it has no
// checks.json, or when none of its checks succeeded: the suite prints such a
// scenario as passed ("0 passed, 0 failed"), but a scenario whose checks are
// all INFO or SKIPPED (say, because the fixture tool it needs is absent)
// measured nothing, and counting it as a pass would hide that.
//
// Every scenario the requirement set runs (its server list, which is scored,
// and its not_scored server entries) is judged: a failure must be listed in
// the baseline under REVISION with a reason, and a listed scenario must
// fail, so that the baseline can only shrink. Prints the result and exits 1
// on any unexpected failure or unexpected pass.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

const [resultsDir, revision, baselinePath, requirementsPath] = process.argv.slice(2);
if (!requirementsPath) {
  console.error("usage: node compare.mjs RESULTS_DIR REVISION BASELINE_YAML REQUIREMENTS_YAML");
  process.exit(2);
}

const requirements = parse(readFileSync(requirementsPath, "utf8"));
const required = requirements.server ?? [];
const notScored = (requirements.not_scored ?? []).filter((e) => e.leg === "server");
const baseline = (parse(readFileSync(baselinePath, "utf8")) ?? {})[revision] ?? {};

// The newest result directory of each scenario.
const dirs = existsSync(resultsDir) ? readdirSync(resultsDir).sort() : [];
function verdict(scenario) {
  const prefix = `server-${scenario.replaceAll("/", "-")}-`;
  const dir = dirs.filter((d) => d.startsWith(prefix) && /^\d{4}-/.test(d.slice(prefix.length))).pop();
  if (!dir || !existsSync(join(resultsDir, dir, "checks.json"))) {
    return { pass: false, why: "not measured (no checks.json)" };
  }
  const checks = JSON.parse(readFileSync(join(resultsDir, dir, "checks.json"), "utf8"));
  const failed = checks.filter((c) => c.status === "FAILURE");
  if (failed.length === 0 && !checks.some((c) => c.status === "SUCCESS")) {
    const statuses = [...new Set(checks.map((c) => c.status))].join(", ") || "no checks";
    return { pass: false, why: `not measured: no check succeeded (${statuses})` };
  }
  return {
    pass: failed.length === 0,
    why: failed.map((c) => `${c.id}: ${(c.errorMessage ?? "").slice(0, 160)}`).join("; "),
  };
}

let problems = 0;
const known = new Set([...required, ...notScored.map((e) => e.scenario)]);
for (const name of Object.keys(baseline)) {
  if (!known.has(name)) {
    console.log(`  ! baseline lists ${name}, which the ${revision} requirements do not run: remove it`);
    problems++;
  }
  if (typeof baseline[name] !== "string" || baseline[name].trim() === "") {
    console.log(`  ! baseline entry ${name} has no reason`);
    problems++;
  }
}

function judge(name, label) {
  const v = verdict(name);
  const expected = Object.hasOwn(baseline, name);
  if (v.pass && expected) {
    console.log(`  ✗ ${name} (${label}) passes but is in the baseline: remove it from conformance/baseline.yaml`);
    problems++;
  } else if (!v.pass && !expected) {
    console.log(`  ✗ ${name} (${label}) fails and is not in the baseline: ${v.why}`);
    problems++;
  } else if (!v.pass) {
    console.log(`  - ${name} (${label}) fails as expected: ${baseline[name]}`);
  }
  return v.pass;
}

const passedRequired = required.filter((name) => judge(name, "required")).length;
const passedNotScored = notScored.filter((e) => judge(e.scenario, `not scored: ${e.reason}`));
console.log(`${revision}: required server scenarios passed ${passedRequired}/${required.length}`);
console.log(
  `${revision}: not scored ${passedNotScored.length}/${notScored.length} passed` +
    (passedNotScored.length ? ` (${passedNotScored.map((e) => e.scenario).join(", ")})` : ""),
);
if (problems > 0) {
  console.log(`${revision}: ${problems} difference(s) from the baseline`);
  process.exit(1);
}
