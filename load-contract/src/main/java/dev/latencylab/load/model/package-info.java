/** The queueing model: what a pool of T at latency L serves to N users (closed) or at a rate (open), and the SLO's verdict on a level. */
package dev.latencylab.load.model;
