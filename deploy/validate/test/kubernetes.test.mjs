// deploy/kubernetes, rendered by kubectl kustomize and checked offline: every object against the
// Kubernetes schemas, then what Tern's drain needs from the relay's DaemonSet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { render, schemaErrors } from "../validate.mjs";

const TREE = fileURLToPath(new URL("../../kubernetes", import.meta.url));
const EXTERNAL = `${TREE}/external-redis`;

const find = (objects, kind, name) =>
  objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

const secretText = (objects, prefix, key) => {
  const secret = objects.find((o) => o.kind === "Secret" && o.metadata.name.startsWith(prefix));
  return Buffer.from(secret.data[key], "base64").toString("utf8");
};

for (const [dir, kinds] of [
  [TREE, ["ConfigMap", "DaemonSet", "Namespace", "PodDisruptionBudget", "Secret", "Service", "StatefulSet"]],
  [EXTERNAL, ["ConfigMap", "DaemonSet", "Namespace", "PodDisruptionBudget", "Secret"]],
]) {
  test(`${dir.slice(dir.indexOf("deploy/"))}: every rendered object is valid against the Kubernetes schemas`, () => {
    const objects = render(dir);
    assert.deepEqual([...new Set(objects.map((o) => o.kind))].sort(), kinds);
    assert.deepEqual(objects.flatMap(schemaErrors), []);
    for (const o of objects.filter((o) => o.kind !== "Namespace")) {
      assert.equal(o.metadata.namespace, "tern", `${o.kind}/${o.metadata.name} is in namespace tern`);
    }
  });
}

test("the validator refuses a schema violation and a kind it has no schema for", () => {
  const [daemonSet] = render(TREE).filter((o) => o.kind === "DaemonSet");
  daemonSet.spec.template.spec.containers[0].ports[0].containerPort = "3478/udp";
  assert.match(schemaErrors(daemonSet).join("\n"), /containerPort must be integer/);
  assert.match(schemaErrors({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" } })[0], /no schema/);
});

test("the relay runs on the node's network with probes on Tern's /ready and metrics port", () => {
  const pod = find(render(TREE), "DaemonSet", "tern-turn").spec.template.spec;
  const [turn] = pod.containers;
  assert.equal(pod.hostNetwork, true);
  assert.equal(pod.dnsPolicy, "ClusterFirstWithHostNet");
  assert.equal(turn.readinessProbe.httpGet.path, "/ready");
  assert.equal(turn.readinessProbe.httpGet.port, 9641);
  assert.equal(turn.livenessProbe.tcpSocket.port, 9641, "liveness must not be /health, which is 503 while draining");
  assert.match(turn.command.join(" "), /exec \/opt\/tern\/bin\/tern turn -c /, "the JVM is PID 1, so kill 1 reaches it");
});

test("preStop drains with SIGUSR1 and waits for the exit, within a grace period that allows it", () => {
  const objects = render(TREE);
  const daemonSet = find(objects, "DaemonSet", "tern-turn");
  const pod = daemonSet.spec.template.spec;
  const preStop = pod.containers[0].lifecycle.preStop.exec.command.join(" ");
  assert.match(preStop, /kill -USR1 1;/);
  assert.match(preStop, /while kill -0 1/);
  assert.ok(pod.terminationGracePeriodSeconds >= 600, "outlasts one default allocation lifetime (600 s)");
  const config = find(objects, "ConfigMap").data["turnserver.conf"];
  assert.match(config, /^prometheus$/m);
  assert.match(config, /^prometheus-port=9641$/m);
  assert.match(config, /^drain-on-term$/m);
  const pdb = find(objects, "PodDisruptionBudget", "tern-turn");
  assert.equal(pdb.spec.maxUnavailable, 1);
  assert.deepEqual(pdb.spec.selector.matchLabels, daemonSet.spec.selector.matchLabels, "the budget covers the relays");
});

test("every node shares the nonce secret; Redis is the in-cluster StatefulSet or, in external-redis, your URL", () => {
  const inCluster = render(TREE);
  assert.match(secretText(inCluster, "tern-turn-secrets", "secrets.conf"), /^stateless-nonce-secret=.+$/m);
  assert.match(secretText(inCluster, "tern-redis", "redis.conf"), /^cluster-redis=redis:\/\/tern-redis-0\.tern-redis\.tern\.svc:6379\/0$/m);
  assert.equal(find(inCluster, "StatefulSet", "tern-redis").spec.serviceName, "tern-redis");
  assert.equal(find(inCluster, "Service", "tern-redis").spec.clusterIP, "None");

  const external = render(EXTERNAL);
  assert.equal(find(external, "StatefulSet"), undefined);
  assert.match(secretText(external, "tern-redis", "redis.conf"), /^cluster-redis=rediss:\/\//m);
  const volumes = find(external, "DaemonSet").spec.template.spec.volumes;
  const redisSecret = external.find((o) => o.kind === "Secret" && o.metadata.name.startsWith("tern-redis"));
  assert.equal(volumes.find((v) => v.name === "redis").secret.secretName, redisSecret.metadata.name);
});
