package io.tern.server;

import io.tern.server.cli.PrintConfigLauncher;
import io.tern.server.cli.TurnServerLauncher;

import java.io.PrintWriter;
import java.nio.charset.Charset;

/** Where {@link Main} gets the launcher for {@code tern turn}. The one place to plug the real server in. */
public final class TurnServerLaunchers
{
    private TurnServerLaunchers()
    {
    }

    /**
     * The launcher {@code tern turn} uses when {@code --print-config} is not given.
     * Until the relay engine is wired in, this prints the effective configuration and returns 0:
     * {@code tern turn} does not serve yet.
     */
    public static TurnServerLauncher defaultLauncher()
    {
        return new PrintConfigLauncher(new PrintWriter(System.out, true, Charset.defaultCharset()));
    }
}
