package dev.latencylab.mvc;

import java.io.IOException;

import dev.latencylab.contract.MalformedRequest;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat rejects some requests before Spring sees them (an invalid or encoded-slash URI, a missing Host, oversized
 * headers) and renders them with its HTML error page. This valve renders them as the contract's problem+json
 * instead; errors Spring handled already have a body and are left alone.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String message = response.getMessage();
        String detail = message != null && !message.isBlank() ? message
                : throwable != null && throwable.getMessage() != null ? throwable.getMessage()
                : "the server could not read the request";
        try {
            response.setContentType(MalformedRequest.CONTENT_TYPE);
            response.getOutputStream().write(MalformedRequest.problem(status, detail));
            response.finishResponse();
        }
        catch (IOException | IllegalStateException e) {
            // the client is gone, or the response was committed: nothing more to say
        }
    }
}
