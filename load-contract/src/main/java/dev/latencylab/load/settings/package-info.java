/** The simulation's settings: its properties read, checked and typed, the request mix, the open load's steps and the injector split. */
package dev.latencylab.load.settings;
