package io.tern.nostr.event;

/**
 * What {@link EventParser} made of an event object: the event, or why it is invalid together with
 * its id when the id itself was readable (so the answer can be an OK naming it).
 */
public record ParsedEvent(Event event, String error, String id) {
    static ParsedEvent ok(Event event) {
        return new ParsedEvent(event, null, event.id());
    }

    static ParsedEvent invalid(String error, String id) {
        return new ParsedEvent(null, error, id);
    }

    public boolean isValid() {
        return event != null;
    }
}
