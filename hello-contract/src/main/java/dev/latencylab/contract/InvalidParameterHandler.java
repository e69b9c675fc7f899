package dev.latencylab.contract;

import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a rejected parameter with the same 400 problem body on both targets: annotated exception handlers
 * work alike in Spring MVC and Spring WebFlux, so one class serves both.
 */
@RestControllerAdvice
public class InvalidParameterHandler {

    @ExceptionHandler(InvalidParameterException.class)
    public ProblemDetail invalidParameter(InvalidParameterException e) {
        return e.toProblemDetail();
    }
}
