/** Spring WebFlux on Reactor Netty: GET /hello/{latency} waits on a timer; /block/{latency} is the blocking anti-pattern. */
package dev.latencylab.webflux;
