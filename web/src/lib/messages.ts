/** Messages more than one feature shows, verbatim. */

/** A list that could not load (more of) its data: the video galleries and My Payments. */
export const errorFetchingData = (message: string) => `Error fetching data: ${message}`;
