//! File formats: broadside's text and JSON formats, and the formats people already have.
