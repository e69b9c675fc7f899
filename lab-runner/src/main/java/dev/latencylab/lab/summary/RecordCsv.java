package dev.latencylab.lab.summary;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import dev.latencylab.lab.layout.OutputFile;

/** Records as CSV tables (runs.csv, summary.csv, levels.csv, measurements.csv): their named parts spelled out as columns. */
public final class RecordCsv {

    private RecordCsv() {
    }

    /**
     * One column per record component, in declaration order, a {@link Spread} as three (x, xMin, xMax: its median and
     * range); empty cells for missing values.
     */
    public static <R extends Record> void write(List<R> rows, Class<R> type, Path file) {
        List<String> header = new ArrayList<>();
        columns(type, header);
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader(header.toArray(String[]::new)).get();
        OutputFile.write(file, out -> {
            java.io.Writer text = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
            try (CSVPrinter csv = new CSVPrinter(text, format)) {
                for (R row : rows) {
                    List<Object> values = new ArrayList<>();
                    values(row, values);
                    csv.printRecord(values);
                }
            }
        });
    }

    /** The columns of a record: a component each, a part's (a record of its own) spelled out in place, a Spread as three. */
    private static void columns(Class<?> type, List<String> header) {
        for (RecordComponent c : type.getRecordComponents()) {
            if (c.getType() == Spread.class) {
                header.addAll(List.of(c.getName(), c.getName() + "Min", c.getName() + "Max"));
            }
            else if (c.getType().isRecord()) {
                columns(c.getType(), header);
            }
            else {
                header.add(c.getName());
            }
        }
    }

    /** A row's values in the order of {@link #columns} (every part is there: a row without one has its NONE). */
    private static void values(Record row, List<Object> values) {
        for (RecordComponent c : row.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(row);
            }
            catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (v instanceof Spread s) {
                values.addAll(java.util.Arrays.asList(s.median(), s.min(), s.max()));
            }
            else if (c.getType().isRecord()) {
                values((Record) v, values);
            }
            else {
                values.add(v);
            }
        }
    }
}
