package io.tern.server.option;

/** Whether an option takes a value: {@code -c}, {@code --help} and the file readers follow it. */
public enum Arity {
    /** {@code name} alone means on; {@code name=off} etc. are accepted. */
    FLAG,
    /** {@code name} alone means "the default", otherwise {@code name=value} (coturn's get_int_value). */
    OPTIONAL_VALUE,
    /** {@code name=value} only. */
    REQUIRED_VALUE
}
