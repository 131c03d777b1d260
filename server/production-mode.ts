// The production entry's first import: React and the rest pick their production builds from
// NODE_ENV when they load, so it is set before anything else is imported. An explicit value wins.
process.env.NODE_ENV ??= 'production'
