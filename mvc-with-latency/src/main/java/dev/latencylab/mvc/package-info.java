/** Spring MVC on Tomcat: GET /hello/{latency} sleeps on its request thread. */
package dev.latencylab.mvc;
