/**
 * How the load reaches a server over TLS: the protocol on the wire (h1, h1-tls, h2) and the certificates it trusts,
 * one set of Gatling's own settings (gatling.ssl.*) read by Gatling's client and by the lab's checks alike.
 */
package dev.latencylab.load.tls;
