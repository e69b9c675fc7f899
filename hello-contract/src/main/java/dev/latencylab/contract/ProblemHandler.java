package dev.latencylab.contract;

import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a rejected parameter (400) and a dependency that gave up (503, 504) with the same problem bodies on both
 * targets: annotated exception handlers work alike in Spring MVC and Spring WebFlux, so one class serves both.
 */
@RestControllerAdvice
public class ProblemHandler {

    @ExceptionHandler(InvalidParameterException.class)
    public ProblemDetail invalidParameter(InvalidParameterException e) {
        return e.toProblemDetail();
    }

    @ExceptionHandler(DependencyException.class)
    public ProblemDetail dependency(DependencyException e) {
        return e.toProblemDetail();
    }
}
