/**
 * This machine: its fingerprint and versions, and the request rate its CPU allows (the machine ceiling).
 */
package dev.latencylab.lab.machine;
