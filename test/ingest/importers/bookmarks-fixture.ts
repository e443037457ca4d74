// A bookmarks file as Firefox and Chrome export it, for tests.

/** The shape Firefox and Chrome export: unclosed DT and p, folders as H3 + DL. */
export const BOOKMARKS_HTML = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file. -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><A HREF="https://top.example/" ADD_DATE="1700000000" LAST_MODIFIED="1700000001">Top level</A>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
    <DL><p>
        <DT><A HREF="https://toolbar.example/" ADD_DATE="1700000100">On the toolbar</A>
        <DT><H3 ADD_DATE="1700000000">Dev</H3>
        <DL><p>
            <DT><A HREF="https://doc.rust-lang.org/book/" ADD_DATE="1700000200" ICON="data:image/png;base64,AAAA">The Rust &amp; Cargo Book</A>
            <DT><H3>Rust</H3>
            <DL><p>
                <DT><A HREF="https://blog.rust-lang.org/" ADD_DATE="1700000300000">Rust Blog &#8212; news</A>
                <DD>A description line
                <DT><A HREF="javascript:alert(1)">bookmarklet</A>
            </DL><p>
            <DT><A HREF="https://crates.io/" ADD_DATE="1700000400000000">crates.io</A>
        </DL><p>
    </DL><p>
    <DT><H3 UNFILED_BOOKMARKS_FOLDER="true">Other Bookmarks</H3>
    <DL><p>
        <DT><A HREF="place:sort=8&maxResults=10">Recent tags</A>
        <DT><H3>Reading</H3>
        <DL><p>
            <DT><A HREF='https://read.example/a?x=1&amp;y=2'>Single quoted</A>
            <DT><A HREF="https://untitled.example/"></A>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://after.example/">After the folders</A>
</DL>
`;
