package dev.latencylab.webflux;

import java.util.List;

import dev.latencylab.contract.MalformedRequest;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * RFC 9112 section 3.2: an HTTP/1.1 request without a Host header, or with more than one, gets 400. Reactor Netty
 * serves it; Tomcat rejects it. This filter makes WebFlux answer it as MVC does, with the contract's problem.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class HostHeaderFilter implements WebFilter {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        List<String> hosts = exchange.getRequest().getHeaders().getValuesAsList(HttpHeaders.HOST);
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
        boolean http11 = nativeRequest instanceof HttpServerRequest netty
                && netty.version().equals(io.netty.handler.codec.http.HttpVersion.HTTP_1_1);
        if (!http11 || hosts.size() == 1) {
            return chain.filter(exchange);
        }
        var response = exchange.getResponse();
        response.setStatusCode(HttpStatus.BAD_REQUEST);
        response.getHeaders().set(HttpHeaders.CONTENT_TYPE, MalformedRequest.CONTENT_TYPE);
        byte[] body = MalformedRequest.problem(400, hosts.isEmpty()
                ? "an HTTP/1.1 request needs a Host header (RFC 9112, section 3.2)"
                : "an HTTP/1.1 request may have one Host header, not " + hosts.size() + " (RFC 9112, section 3.2)");
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
