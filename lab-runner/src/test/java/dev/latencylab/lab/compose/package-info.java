/** Tests of docker-compose.yml: resolved by a real compose, applied to the real jars. */
package dev.latencylab.lab.compose;
