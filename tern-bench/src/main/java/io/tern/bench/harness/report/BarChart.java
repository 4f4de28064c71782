package io.tern.bench.harness.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Grouped bar charts drawn with Java2D (headless): one panel per metric, one group of bars per
 * category, one bar per series. Used by the relay and origin benchmark summaries.
 */
public final class BarChart {
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
    };

    /** One metric: {@code values.get(category).get(series)}; a missing or NaN value draws no bar. */
    public record Panel(String caption, Map<String, Map<String, Double>> values) {}

    private BarChart() {}

    public static void write(String title, List<String> categories, List<String> series, List<Panel> panels, Path png)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        int panelH = 320;
        int labelH = 150;
        int width = Math.max(900, 300 + categories.size() * (20 + 18 * Math.max(1, series.size())));
        int height = 60 + panels.size() * (panelH + labelH);
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
        for (int i = 0; i < series.size(); i++) {
            g.setColor(COLORS[i % COLORS.length]);
            g.fillRect(width - 200, 14 + i * 16, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(series.get(i), width - 182, 25 + i * 16);
        }
        for (int p = 0; p < panels.size(); p++) {
            panel(g, panels.get(p), categories, series, 60 + p * (panelH + labelH), panelH, width);
        }
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }

    private static double value(Panel p, String category, String series) {
        Map<String, Double> m = p.values().get(category);
        Double v = m == null ? null : m.get(series);
        return v == null ? Double.NaN : v;
    }

    private static void panel(
            Graphics2D g, Panel p, List<String> categories, List<String> series, int top, int panelH, int width) {
        int left = 80;
        int plotTop = top + 24;
        int plotH = panelH - 30;
        double max = 0;
        for (String c : categories) {
            for (String s : series) {
                double x = value(p, c, s);
                if (!Double.isNaN(x)) {
                    max = Math.max(max, x);
                }
            }
        }
        max = max <= 0 ? 1 : max * 1.1;
        g.setColor(Color.BLACK);
        g.drawString(p.caption(), left, top + 14);
        g.setStroke(new BasicStroke(1));
        for (int i = 0; i <= 4; i++) {
            int y = plotTop + plotH - plotH * i / 4;
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, y, width - 200, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, max < 10 ? "%,.2f" : "%,.0f", max * i / 4), 8, y + 4);
        }
        int groupW = (width - left - 200) / Math.max(1, categories.size());
        int barW = Math.max(4, (groupW - 10) / Math.max(1, series.size()));
        for (int k = 0; k < categories.size(); k++) {
            int gx = left + k * groupW + 5;
            for (int s = 0; s < series.size(); s++) {
                double v = value(p, categories.get(k), series.get(s));
                if (Double.isNaN(v)) {
                    continue;
                }
                int h = (int) (plotH * v / max);
                g.setColor(COLORS[s % COLORS.length]);
                g.fillRect(gx + s * barW, plotTop + plotH - h, barW - 2, h);
            }
            AffineTransform saved = g.getTransform();
            g.setColor(Color.BLACK);
            g.translate(gx + groupW / 2.0, plotTop + plotH + 8);
            g.rotate(Math.PI / 4);
            g.drawString(categories.get(k), 0, 0);
            g.setTransform(saved);
        }
        g.setColor(Color.BLACK);
        g.drawLine(left, plotTop + plotH, width - 200, plotTop + plotH);
    }
}
