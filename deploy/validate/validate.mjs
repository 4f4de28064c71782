// Renders a kustomize tree with `kubectl kustomize` (offline: no cluster is asked) and validates
// every object against the Kubernetes OpenAPI schemas that kubernetes-models compiles.
//   node validate.mjs ../kubernetes ../kubernetes/external-redis
import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { Namespace, ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { DaemonSet, StatefulSet } from "kubernetes-models/apps/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";

/** The kinds deploy/kubernetes uses; any other kind is refused rather than passed unchecked. */
const MODELS = new Map([
  ["v1/Namespace", Namespace],
  ["v1/ConfigMap", ConfigMap],
  ["v1/Secret", Secret],
  ["v1/Service", Service],
  ["apps/v1/DaemonSet", DaemonSet],
  ["apps/v1/StatefulSet", StatefulSet],
  ["policy/v1/PodDisruptionBudget", PodDisruptionBudget],
]);

/** The objects `kubectl kustomize dir` renders. */
export function render(dir, kubectl = process.env.KUBECTL || "kubectl") {
  const yamlText = execFileSync(kubectl, ["kustomize", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  return parseAllDocuments(yamlText).map((doc) => {
    if (doc.errors.length > 0) {
      throw new Error(`${dir}: rendered YAML does not parse: ${doc.errors[0].message}`);
    }
    return unfoldSecretData(doc.toJS());
  });
}

// kustomize v5 folds a Secret's base64 at 70 columns; the API server's decoder (Go's
// encoding/base64) skips the line breaks, the schema's "byte" format does not.
function unfoldSecretData(object) {
  if (object?.kind === "Secret" && object.data) {
    for (const key of Object.keys(object.data)) {
      object.data[key] = String(object.data[key]).replace(/[\r\n]/g, "");
    }
  }
  return object;
}

/** The schema errors of one object, as 'Kind/name: message' lines (none when it is valid). */
export function schemaErrors(object) {
  const id = `${object?.kind}/${object?.metadata?.name}`;
  const Model = MODELS.get(`${object?.apiVersion}/${object?.kind}`);
  if (!Model) {
    return [`${id}: no schema here for ${object?.apiVersion} ${object?.kind}`];
  }
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${id}: ${error.message}`];
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let failed = 0;
  for (const dir of process.argv.slice(2)) {
    const objects = render(dir);
    const errors = objects.flatMap(schemaErrors);
    failed += errors.length;
    console.log(`${dir}: ${objects.length} objects, ${errors.length} schema errors`);
    errors.forEach((line) => console.log(`  ${line}`));
  }
  process.exit(failed === 0 ? 0 : 1);
}
