package io.tern.rtmp.command;

import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfNumber;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.amf.AmfValue.AmfString;
import java.util.List;

/**
 * An AMF0 command message (RTMP specification 1.0, §7.1.1): its name, transaction id, command
 * object (null for most stream commands) and arguments.
 */
public record Command(String name, double transactionId, AmfValue commandObject, List<AmfValue> arguments) {
    public Command {
        arguments = List.copyOf(arguments);
    }

    /** Reads a command from its decoded values; null when they do not start with a name. */
    public static Command of(List<AmfValue> values) {
        if (values.isEmpty() || !(values.get(0) instanceof AmfString name)) {
            return null;
        }
        double tid = values.size() > 1 && values.get(1) instanceof AmfNumber n ? n.value() : 0;
        AmfValue object = values.size() > 2 ? values.get(2) : AmfNull.NULL;
        List<AmfValue> args = values.size() > 3 ? values.subList(3, values.size()) : List.of();
        return new Command(name.value(), tid, object, args);
    }

    /** The command object, when it is an object. */
    public AmfObject object() {
        return commandObject instanceof AmfObject o ? o : null;
    }

    /** Argument {@code index} as a string, or null. */
    public String stringArgument(int index) {
        return index < arguments.size() && arguments.get(index) instanceof AmfString s ? s.value() : null;
    }

    /** Argument {@code index} as a number, or {@code fallback}. */
    public double numberArgument(int index, double fallback) {
        return index < arguments.size() && arguments.get(index) instanceof AmfNumber n ? n.value() : fallback;
    }

    /** Argument {@code index} as an object, or null. */
    public AmfObject objectArgument(int index) {
        return index < arguments.size() && arguments.get(index) instanceof AmfObject o ? o : null;
    }
}
