package io.tern.turn.engine;

import io.tern.turn.timer.Expiring;

/** The expiry of an EVEN-PORT reservation this engine made (RFC 8656 §7.2: about 30 seconds). */
final class Reservation extends Expiring {}
