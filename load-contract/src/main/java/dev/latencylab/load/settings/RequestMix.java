package dev.latencylab.load.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The requests a run sends: one (test.path, with sim.method and sim.body.file), or the lines of a requests file
 * (sim.requests.file), each sent in turn as often as its weight says; and the headers every request carries
 * (sim.header.NAME). A requests file holds one request a line, {@code [WEIGHT] METHOD PATH [@BODY_FILE]}, e.g.
 * {@code 3 GET /owners?lastName=Davis} or {@code POST /owners @owner.json} (the body's file beside the requests file);
 * blank lines and lines starting with # are skipped.
 *
 * @param file     the requests file, if the requests came from one
 * @param requests at least one
 * @param headers  header name to value, sent with every request (the result file records their names only: a value
 *                 may be a secret)
 */
public record RequestMix(Optional<Path> file, List<Request> requests, Map<String, String> headers) {

    /** The methods a request may have. */
    public static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    /** A body larger than this is a mistake (a wrong file), not a request. */
    static final long MAX_BODY_BYTES = 1 << 20;
    static final int MAX_WEIGHT = 1000;
    static final int MAX_REQUESTS = 100;
    private static final Pattern LINE = Pattern.compile("(?:([0-9]+)\\s+)?([A-Za-z]+)\\s+(\\S+)(?:\\s+@(\\S+))?");
    /** Headers of the connection and the message's framing, which the HTTP client writes: never the user's. */
    private static final List<String> OWN_HEADERS = List.of("Host", "Content-Length", "Connection", "Transfer-Encoding", "Upgrade",
            "Expect", "Keep-Alive", "TE", "Trailer");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** A line that begins as a header does (NAME:, not a URL's scheme): a requests file's line never shown. */
    private static final Pattern HEADER_LINE = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+:(?!//)");

    /**
     * One request: its method, its path (with its query) and the file of its body, if it has one.
     *
     * @param weight how many of each turn of the mix are this request
     */
    public record Request(String method, String path, Optional<Path> bodyFile, int weight) {

        /** Its body's bytes (none without a body file): read when the run builds its requests, checked when it was read. */
        public byte[] body() {
            try {
                return bodyFile.isEmpty() ? new byte[0] : Files.readAllBytes(bodyFile.get());
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException("the body " + bodyFile.get() + " cannot be read", e);
            }
        }

        /** What the result file and the page call it: "GET /owners?lastName=Davis". */
        public String name() {
            return method + " " + path;
        }

        /** The request as a requests file writes it. */
        public String line() {
            return weight + " " + name() + bodyFile.map(f -> " @" + f).orElse("");
        }

        /** The Content-Type a body is sent with unless a header says otherwise: from its file's extension. */
        public String contentType() {
            String file = bodyFile.map(f -> f.getFileName().toString().toLowerCase(Locale.ROOT)).orElse("");
            return file.endsWith(".json") ? "application/json" : file.endsWith(".xml") ? "application/xml"
                    : file.endsWith(".txt") ? "text/plain" : file.endsWith(".form") ? "application/x-www-form-urlencoded"
                    : "application/octet-stream";
        }
    }

    public RequestMix {
        requests = List.copyOf(requests);
        headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    /**
     * The headers a request goes with: every request's, and for one with a body its Content-Type from its file's
     * extension unless a header gives one. The simulation and the preflight send the same.
     */
    public Map<String, String> headersOf(Request q) {
        Map<String, String> all = new TreeMap<>(headers);
        if (q.bodyFile().isPresent() && headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
            all.put("Content-Type", q.contentType());
        }
        return all;
    }

    /** Whether the run sends more than one kind of request: then the result file has each one's figures. */
    public boolean mixed() {
        return requests.size() > 1;
    }

    /** The first request's path: the one the model reads a latency from, and the console names. */
    public String firstPath() {
        return requests.get(0).path();
    }

    /**
     * The order of one turn of the mix, as indexes into requests: each as often as its weight, spread evenly (smooth
     * weighted round robin), so that any stretch of a run sends them in their proportions.
     */
    public List<Integer> turn() {
        int total = requests.stream().mapToInt(Request::weight).sum();
        int[] current = new int[requests.size()];
        List<Integer> order = new ArrayList<>(total);
        for (int n = 0; n < total; n++) {
            int best = 0;
            for (int i = 0; i < current.length; i++) {
                current[i] += requests.get(i).weight();
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            order.add(best);
        }
        return order;
    }

    /** A single request: method and path, with the body of bodyFile when given. Problems go to problems. */
    static RequestMix single(String method, String path, Optional<Path> bodyFile, Map<String, String> headers, List<String> problems) {
        String m = method(method, "sim.method=" + method, problems);
        Optional<Path> absolute = bodyFile.map(Path::toAbsolutePath);
        absolute.ifPresent(f -> checkBody(f, null, "sim.body.file=" + f, problems)); // named by the user: any file
        return new RequestMix(Optional.empty(), List.of(new Request(m, path, absolute, 1)), headers);
    }

    /**
     * The requests of a requests file, each line checked; a path is checked by pathProblem (null when fine). Every
     * problem goes to problems as "file:line: ...".
     */
    static RequestMix read(Path given, Map<String, String> headers, java.util.function.Function<String, String> pathProblem, List<String> problems) {
        Path file = given.toAbsolutePath(); // the Gatling JVM the runner starts reads it from another folder
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        }
        catch (IOException | RuntimeException e) {
            problems.add("sim.requests.file=%s cannot be read (%s); give a text file of requests, one a line: [WEIGHT] METHOD PATH [@BODY_FILE]"
                    .formatted(file, e.getClass().getSimpleName()));
            return new RequestMix(Optional.of(file), List.of(new Request("GET", "/", Optional.empty(), 1)), headers);
        }
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches() && HEADER_LINE.matcher(line).lookingAt()) {
                // a header's value may be a secret: the line is never shown
                problems.add("%s:%d: a header (NAME: value), which a requests file does not hold (the line is not shown); give headers with "
                        .formatted(file, i + 1) + "--header 'NAME: value' or --header @FILE");
                continue;
            }
            String where = "%s:%d: %s".formatted(file, i + 1, line);
            if (!m.matches()) {
                problems.add(where + ": not a request; give [WEIGHT] METHOD PATH [@BODY_FILE], e.g. 3 GET /owners?lastName=Davis");
                continue;
            }
            int weight = m.group(1) == null ? 1 : weight(m.group(1), where, problems);
            String method = method(m.group(2), where, problems);
            String path = SimulationSettings.normalizePath(m.group(3));
            String bad = pathProblem.apply(path);
            if (bad != null) {
                problems.add(where + ": " + bad);
            }
            Optional<Path> bodyFile = Optional.ofNullable(m.group(4)).map(b -> file.toAbsolutePath().getParent().resolve(b));
            bodyFile.ifPresent(f -> checkBody(f, file.getParent(), where, problems));
            requests.add(new Request(method, path, bodyFile, weight));
        }
        if (requests.isEmpty()) {
            problems.add("sim.requests.file=%s holds no request; give one a line: [WEIGHT] METHOD PATH [@BODY_FILE]".formatted(file));
            requests.add(new Request("GET", "/", Optional.empty(), 1));
        }
        else if (requests.size() > MAX_REQUESTS) {
            problems.add("sim.requests.file=%s holds %d requests; at most %d".formatted(file, requests.size(), MAX_REQUESTS));
        }
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (Request r : requests) {
            if (seen.merge(r.name(), 1, Integer::sum) == 2) {
                problems.add("sim.requests.file=%s: %s is there twice; give it once, with the weight of both".formatted(file, r.name()));
            }
        }
        return new RequestMix(Optional.of(file), requests, headers);
    }

    /**
     * A header as a user writes it and the runner passes it on, "NAME: VALUE" (split at the first colon, both stripped);
     * null when no name comes before a colon.
     */
    public static Map.Entry<String, String> header(String line) {
        int colon = line.indexOf(':');
        return colon <= 0 ? null : Map.entry(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
    }

    /** A header's name as HTTP allows it (a token), else a problem. */
    static void checkHeader(String name, String value, List<String> problems) {
        if (!HEADER_NAME.matcher(name).matches()) {
            problems.add("sim.header.%s: %s is not a header name; allowed: letters, digits and !#$%%&'*+.^_`|~-".formatted(name, name));
        }
        if (OWN_HEADERS.stream().anyMatch(name::equalsIgnoreCase)) {
            problems.add(("sim.header.%s: the HTTP client sets %s itself (Host from base.url: every request goes to the host the "
                    + "runner checked); leave it out").formatted(name, name));
        }
        if (value.chars().anyMatch(c -> c == '\r' || c == '\n')) {
            problems.add("sim.header.%s: its value holds a line break; give it on one line".formatted(name));
        }
        else {
            // HTTP allows none of them in a value; said by position, never by the value, which may be a secret
            value.chars().filter(c -> c < 0x20 && c != '\t' || c == 0x7f).findFirst().ifPresent(c -> problems.add(
                    "sim.header.%s: its value holds a control character (0x%02x, character %d of %d; the value is not shown); give visible characters only"
                            .formatted(name, c, value.indexOf(c) + 1, value.length())));
        }
    }

    private static int weight(String w, String where, List<String> problems) {
        try {
            int n = Integer.parseInt(w);
            if (n >= 1 && n <= MAX_WEIGHT) {
                return n;
            }
        }
        catch (NumberFormatException tooLong) {
            // reported below
        }
        problems.add("%s: weight %s; allowed: a whole number from 1 to %d".formatted(where, w, MAX_WEIGHT));
        return 1;
    }

    private static String method(String method, String where, List<String> problems) {
        String m = method.toUpperCase(Locale.ROOT);
        if (!METHODS.contains(m)) {
            problems.add("%s: method %s is not one of %s".formatted(where, method, new java.util.TreeSet<>(METHODS)));
        }
        return m;
    }

    /**
     * A body file that can be read, and one a requests file names in that file's folder or below (folder; a link
     * resolved): nothing else is sent. null: a body file the user named directly.
     */
    private static void checkBody(Path file, Path folder, String where, List<String> problems) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            problems.add("%s: the body %s is not a file that can be read".formatted(where, file));
            return;
        }
        try {
            if (folder != null && !file.toRealPath().startsWith(folder.toRealPath())) {
                problems.add("%s: the body %s is outside %s, the requests file's folder; a body file goes in that folder or below it"
                        .formatted(where, file.normalize(), folder));
                return;
            }
        }
        catch (IOException e) {
            problems.add("%s: the body %s cannot be read (%s)".formatted(where, file, e.getClass().getSimpleName()));
            return;
        }
        try {
            if (Files.size(file) > MAX_BODY_BYTES) {
                problems.add("%s: the body %s is over %d bytes; give a smaller one".formatted(where, file, MAX_BODY_BYTES));
            }
        }
        catch (IOException e) {
            problems.add("%s: the body %s cannot be read (%s)".formatted(where, file, e.getClass().getSimpleName()));
        }
    }
}
