package dev.latencylab.contract;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** A request parameter outside what the contract allows; answered as an RFC 9457 problem (400). */
public class InvalidParameterException extends RuntimeException {

    private final String parameter;
    private final String value;
    private final String allowed;

    public InvalidParameterException(String parameter, String value, String why, String allowed) {
        super("%s '%s' %s; allowed: %s".formatted(parameter, value, why, allowed));
        this.parameter = parameter;
        this.value = value;
        this.allowed = allowed;
    }

    public ProblemDetail toProblemDetail() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, getMessage());
        problem.setTitle("Invalid request parameter");
        problem.setProperty("parameter", parameter);
        problem.setProperty("value", value);
        problem.setProperty("allowed", allowed);
        return problem;
    }
}
