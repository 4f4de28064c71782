package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.origin.api.ApiRoutes;
import io.tern.server.origin.harness.Json;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The API's OpenAPI document, read as the origin serves it, and the checks a test makes with it:
 * the document names exactly the routes the API serves, and each answer a real client got has a
 * status the document lists for its operation and a body with every property its schema requires
 * (following {@code $ref}, {@code allOf}, {@code oneOf}, nested objects and array items).
 */
final class OpenApiCheck {
    private final Map<String, Object> doc;
    private final Set<String> exercised = new TreeSet<>();

    @SuppressWarnings("unchecked")
    OpenApiCheck(String json) {
        this.doc = (Map<String, Object>) Json.parse(json);
    }

    /** {@code "GET /api/v1/streams"} for every operation in the document. */
    @SuppressWarnings("unchecked")
    Set<String> operations() {
        Set<String> out = new TreeSet<>();
        for (Map.Entry<String, Object> path : ((Map<String, Object>) doc.get("paths")).entrySet()) {
            for (String key : ((Map<String, Object>) path.getValue()).keySet()) {
                if (!key.equals("parameters")) {
                    out.add(key.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        return out;
    }

    /** The same form, for the routes {@link ApiRoutes} registers. */
    static Set<String> served() {
        Set<String> out = new TreeSet<>();
        for (ApiRoutes.Endpoint e : ApiRoutes.endpoints()) {
            out.add(e.method() + " " + e.path());
        }
        return out;
    }

    /** Checks one answer of {@code method template} against the document. */
    @SuppressWarnings("unchecked")
    void check(String method, String template, int status, String body) {
        String operation = method + " " + template;
        Map<String, Object> op = (Map<String, Object>) Json.at(doc, "paths", template, method.toLowerCase(Locale.ROOT));
        assertThat(op).as("%s in the OpenAPI document", operation).isNotNull();
        Map<String, Object> responses = (Map<String, Object>) op.get("responses");
        assertThat(responses)
                .as("statuses documented for %s (got %d: %s)", operation, status, body)
                .containsKey(Integer.toString(status));
        Map<String, Object> response = resolve((Map<String, Object>) responses.get(Integer.toString(status)));
        Object schema = Json.at(response, "content", "application/json", "schema");
        assertThat(schema).as("a JSON schema for %s %d", operation, status).isNotNull();
        conforms(Json.parse(body), (Map<String, Object>) schema, operation + " " + status);
        exercised.add(operation);
    }

    /** The operations {@link #check} has seen. */
    Set<String> exercised() {
        return exercised;
    }

    @SuppressWarnings("unchecked")
    private void conforms(Object value, Map<String, Object> schema, String where) {
        schema = resolve(schema);
        if (schema.containsKey("allOf")) {
            for (Object part : (List<Object>) schema.get("allOf")) {
                conforms(value, (Map<String, Object>) part, where);
            }
            return;
        }
        if (schema.containsKey("oneOf")) {
            Set<String> fits = new HashSet<>();
            for (Object part : (List<Object>) schema.get("oneOf")) {
                Map<String, Object> p = resolve((Map<String, Object>) part);
                if ("null".equals(p.get("type")) ? value == null : value != null) {
                    conforms(value, p, where);
                    fits.add(String.valueOf(p.get("type")));
                }
            }
            assertThat(fits)
                    .as("%s: one of the alternatives fits %s", where, value)
                    .hasSize(1);
            return;
        }
        Object type = schema.get("type");
        if (type instanceof List<?> types) {
            assertThat((List<Object>) types).as("%s: %s", where, value).contains(typeOf(value));
            return;
        }
        if (type != null) {
            assertThat(typeOf(value, (String) type))
                    .as("%s: %s is a %s", where, value, type)
                    .isEqualTo(type);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> object = (Map<String, Object>) map;
            for (Object name : (List<Object>) schema.getOrDefault("required", List.of())) {
                assertThat(object).as("%s: required property %s", where, name).containsKey((String) name);
            }
            Map<String, Object> properties = (Map<String, Object>) schema.getOrDefault("properties", Map.of());
            for (Map.Entry<String, Object> p : properties.entrySet()) {
                if (object.containsKey(p.getKey())) {
                    conforms(object.get(p.getKey()), (Map<String, Object>) p.getValue(), where + "." + p.getKey());
                }
            }
        }
        if (value instanceof List<?> array && schema.get("items") instanceof Map<?, ?> items) {
            for (Object item : array) {
                conforms(item, (Map<String, Object>) items, where + "[]");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> resolve(Map<String, Object> node) {
        Object ref = node.get("$ref");
        if (ref == null) {
            return node;
        }
        Object target = doc;
        for (String step : ((String) ref).substring(2).split("/")) {
            target = ((Map<String, Object>) target).get(step);
        }
        assertThat(target).as("$ref %s", ref).isNotNull();
        return resolve((Map<String, Object>) target);
    }

    private static String typeOf(Object value) {
        return typeOf(value, null);
    }

    /** The JSON type of {@code value}; a whole number is an integer and, where a number is wanted, a number. */
    private static String typeOf(Object value, String wanted) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof List) {
            return "array";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        double d = ((Number) value).doubleValue();
        return "number".equals(wanted) || d != Math.rint(d) ? "number" : "integer";
    }
}
