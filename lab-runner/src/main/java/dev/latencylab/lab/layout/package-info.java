/**
 * Folder layout: the one owner of each folder and file name (a run's, a sweep's, a search's, the results folders),
 * folder locks, and files written whole or not at all.
 * <p>
 * RunFolder, SweepFolder, SearchFolder, FootprintFolder, ResultsFolders (and the -r<k> of repeats), FolderLock,
 * OutputFile, Folders.
 */
package dev.latencylab.lab.layout;
