//! PDF files from the library's pictures ([`broadside::publish::Picture`]): each page an SVG
//! turned into vector PDF by typst's `svg2pdf`, with the one embedded font (DejaVu Sans,
//! `crates/cli/fonts/`, its subset written into the file), so the output looks the same on
//! every machine.

use std::collections::HashMap;

use anyhow::{Context, Result};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
use svg2pdf::usvg;

use broadside::publish::Picture;

/// The font every picture names, built into the binary.
const FONT: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// Points per millimetre.
const PT: f64 = 72.0 / 25.4;

/// The SVG reading options, with the embedded font as the only one.
fn options() -> usvg::Options<'static> {
    let mut opts = usvg::Options::default();
    let fonts = opts.fontdb_mut();
    fonts.load_font_data(FONT.to_vec());
    fonts.set_sans_serif_family(broadside::publish::FONT_FAMILY);
    opts.font_family = broadside::publish::FONT_FAMILY.into();
    opts
}

/// A PDF file of `pages`, one page each, each the size of its picture.
pub fn pdf(pages: &[Picture]) -> Result<Vec<u8>> {
    let opts = options();
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_id = alloc.bump();
    let page_ids: Vec<Ref> = pages.iter().map(|_| alloc.bump()).collect();
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree_id);
    pdf.pages(tree_id)
        .kids(page_ids.iter().copied())
        .count(pages.len() as i32);
    for (picture, &page_id) in pages.iter().zip(&page_ids) {
        let tree = usvg::Tree::from_str(&picture.svg(), &opts)
            .context("drawing a page (its SVG does not read)")?;
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| anyhow::anyhow!("drawing a page as PDF: {e}"))?;
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let svg_id = map[&svg_id];
        let content_id = alloc.bump();
        let (w, h) = (picture.width * PT, picture.height * PT);
        let name = Name(b"S1");
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, w as f32, h as f32));
        page.parent(tree_id);
        page.contents(content_id);
        page.resources().x_objects().pair(name, svg_id);
        page.finish();
        let mut content = Content::new();
        content
            .transform([w as f32, 0.0, 0.0, h as f32, 0.0, 0.0])
            .x_object(name);
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
    }
    Ok(pdf.finish())
}

/// Whether `path` names a PDF file (by its extension) rather than an SVG one; an error for
/// any other.
pub fn is_pdf(path: &std::path::Path) -> Result<bool> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("pdf") => Ok(true),
        Some("svg") => Ok(false),
        _ => Err(crate::usage(format!(
            "{}: the output must end in .svg or .pdf",
            path.display()
        ))),
    }
}
