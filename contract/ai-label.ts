/**
 * How a result is labelled wherever it is shown publicly (the share page and its link previews, the viewer, the
 * examples on the marketing pages): said where people look, not only in the file's content credentials.
 */
export const aiGeneratedLabel = (modelName: string, madeOn: string) => `AI-generated with ${modelName} on ${madeOn}`;
