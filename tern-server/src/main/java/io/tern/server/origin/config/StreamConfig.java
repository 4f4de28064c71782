package io.tern.server.origin.config;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import java.nio.file.Path;

/**
 * The settings of one stream: its {@code [stream NAME]} section over the server-wide values.
 *
 * @param name              the stream, or null for the server-wide defaults
 * @param record            whether it is recorded (when the server records at all)
 * @param noPublishAuth     anyone may publish it
 * @param publishSecret     the secret its tokens are signed with, or null (then the file, or the server's)
 * @param publishSecretFile a file holding it, or null
 * @param ownSecret         whether the secret comes from the stream's own section
 * @param swarm             whether its objects are signed for peer-assisted delivery
 */
public record StreamConfig(
        String name,
        boolean record,
        int partTargetMs,
        int segmentTargetMs,
        int playlistWindowMs,
        DeliveryMode delivery,
        RenditionMode renditions,
        boolean noPublishAuth,
        String publishSecret,
        Path publishSecretFile,
        boolean ownSecret,
        boolean swarm) {

    /**
     * The packager's settings for one run ({@code instanceId}) of this stream.
     *
     * @throws IllegalArgumentException naming the packager's field and the value, as {@link PackagerConfig} does
     */
    public PackagerConfig packagerConfig(String instanceId, int maxHeldRequests) {
        PackagerConfig d = PackagerConfig.defaults(instanceId);
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                0,
                playlistWindowMs,
                d.discontinuityGapMs(),
                d.audioFramesPerChunk(),
                maxHeldRequests,
                d.maxRetainedBytes(),
                d.maxAccessUnitBytes(),
                delivery.packager(),
                renditions);
    }
}
