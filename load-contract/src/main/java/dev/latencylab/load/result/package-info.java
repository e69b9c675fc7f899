/** The result file: result.json as types (Result), its writing and reading, its checks, and the histogram codec. */
package dev.latencylab.load.result;
