package io.tern.bench.origin.viewer;

import java.util.Locale;

/** Why a request did not succeed. */
public enum Failure {
    HTTP_4XX,
    HTTP_5XX,
    /** A status that is neither 200 nor an error (1xx, 3xx, 204, ...). */
    HTTP_OTHER,
    /** The connection closed or failed while the request was in flight (or could not be opened). */
    CONNECTION,
    /** No complete response within the request timeout. */
    TIMEOUT,
    /** An unparseable response or playlist. */
    MALFORMED;

    public static Failure ofStatus(int status) {
        if (status >= 500) {
            return HTTP_5XX;
        }
        if (status >= 400) {
            return HTTP_4XX;
        }
        return HTTP_OTHER;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
