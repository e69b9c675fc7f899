package dev.latencylab.contract;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * The answer to a request the server cannot read (no or two Host headers, an invalid URI, oversized headers): an
 * RFC 9457 problem, like every other error of the contract. Written where Spring never sees the request (Tomcat's
 * error report valve, a WebFlux filter), so it is built here as plain JSON, the same bytes on both targets.
 */
public final class MalformedRequest {

    public static final String CONTENT_TYPE = MediaType.APPLICATION_PROBLEM_JSON_VALUE;
    private static final JsonMapper JSON = JsonMapper.shared();

    private MalformedRequest() {
    }

    /** {"type":"about:blank","title":"Bad Request","status":400,"detail":...} */
    public static byte[] problem(int status, String detail) {
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "about:blank");
        body.put("title", known == null ? "Error" : known.getReasonPhrase());
        body.put("status", status);
        body.put("detail", detail);
        return JSON.writeValueAsBytes(body);
    }
}
