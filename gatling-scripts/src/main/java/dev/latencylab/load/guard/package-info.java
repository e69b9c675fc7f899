/**
 * What the lab enforces inside Gatling's JVM, where connections are made rather than in a simulation's text: a Java
 * agent (LabAgent, given to every Gatling JVM the lab starts) that refuses a connection to any host but the checked one
 * (CheckedHost), counts the protocol each TLS connection negotiated by ALPN (Negotiated), and skips Gatling's check for
 * a newer release (a call to Maven Central nobody asked for).
 */
package dev.latencylab.load.guard;
