/** Tests of deploy/k8s: validated offline, their settings read as Kubernetes would expand them, the merge step run. */
package dev.latencylab.lab.k8s;
