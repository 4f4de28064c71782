package io.tern.bench.runner;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/** Grouped bar chart (Java2D, headless): median packets/s and p99 per cell, one bar per server. */
final class Chart {
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
    };

    private Chart() {}

    static void write(Map<String, Map<String, Summary.Medians>> cells, String title, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> servers = new ArrayList<>(new TreeSet<>(
                cells.values().stream().flatMap(m -> m.keySet().stream()).toList()));
        List<String> keys = new ArrayList<>(cells.keySet());
        int panelH = 320;
        int labelH = 150;
        int width = Math.max(900, 300 + keys.size() * (20 + 18 * Math.max(1, servers.size())));
        int height = 60 + 2 * (panelH + labelH);
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, 20, 26);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int i = 0; i < servers.size(); i++) {
            g.setColor(COLORS[i % COLORS.length]);
            g.fillRect(width - 200 + 0, 14 + i * 16, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(servers.get(i), width - 182, 25 + i * 16);
        }
        panel(
                g,
                cells,
                keys,
                servers,
                "median packets/s (higher is better)",
                Summary.Medians::packetsPerSecond,
                60,
                panelH,
                labelH,
                width);
        panel(
                g,
                cells,
                keys,
                servers,
                "median round-trip p99 µs (lower is better)",
                Summary.Medians::p99Us,
                60 + panelH + labelH,
                panelH,
                labelH,
                width);
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }

    private static void panel(
            Graphics2D g,
            Map<String, Map<String, Summary.Medians>> cells,
            List<String> keys,
            List<String> servers,
            String caption,
            ToDoubleFunction<Summary.Medians> metric,
            int top,
            int panelH,
            int labelH,
            int width) {
        int left = 80;
        int plotTop = top + 24;
        int plotH = panelH - 30;
        double max = 0;
        for (Map<String, Summary.Medians> m : cells.values()) {
            for (Summary.Medians v : m.values()) {
                double x = metric.applyAsDouble(v);
                if (!Double.isNaN(x)) {
                    max = Math.max(max, x);
                }
            }
        }
        max = max <= 0 ? 1 : max * 1.1;
        g.setColor(Color.BLACK);
        g.drawString(caption, left, top + 14);
        g.setStroke(new BasicStroke(1));
        for (int i = 0; i <= 4; i++) {
            int y = plotTop + plotH - plotH * i / 4;
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, y, width - 200, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%,.0f", max * i / 4), 8, y + 4);
        }
        int groupW = (width - left - 200) / Math.max(1, keys.size());
        int barW = Math.max(4, (groupW - 10) / Math.max(1, servers.size()));
        for (int k = 0; k < keys.size(); k++) {
            int gx = left + k * groupW + 5;
            for (int s = 0; s < servers.size(); s++) {
                Summary.Medians m = cells.get(keys.get(k)).get(servers.get(s));
                if (m == null || Double.isNaN(metric.applyAsDouble(m))) {
                    continue;
                }
                int h = (int) (plotH * metric.applyAsDouble(m) / max);
                g.setColor(COLORS[s % COLORS.length]);
                g.fillRect(gx + s * barW, plotTop + plotH - h, barW - 2, h);
            }
            AffineTransform saved = g.getTransform();
            g.setColor(Color.BLACK);
            g.translate(gx + groupW / 2.0, plotTop + plotH + 8);
            g.rotate(Math.PI / 4);
            g.drawString(keys.get(k), 0, 0);
            g.setTransform(saved);
        }
        g.setColor(Color.BLACK);
        g.drawLine(left, plotTop + plotH, width - 200, plotTop + plotH);
    }
}
