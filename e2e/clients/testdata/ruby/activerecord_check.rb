# ActiveRecord (Rails' ORM, without Rails) as an application uses it:
# connect (which sets IntervalStyle iso_8601 and reads the type map),
# migrations, the schema dump, CRUD, associations, validations against a
# unique index, transactions. Prints PASS at the end; any failure raises.
require "active_record"
require "stringio"

host, port = ARGV
ActiveRecord::Base.establish_connection(adapter: "postgresql", host: host, port: port.to_i,
                                        username: "zproxy", database: "zproxy")

def check(what, got, want)
  raise "#{what}: got #{got.inspect}, want #{want.inspect}" unless got == want
end

class CreateLibrary < ActiveRecord::Migration[6.1]
  def change
    create_table :authors do |t|
      t.string :name, null: false
      t.string :email, null: false
      t.integer :born
      t.timestamps
    end
    add_index :authors, :email, unique: true
    create_table :books do |t|
      t.references :author, null: false, foreign_key: true
      t.string :title, null: false, limit: 200
      t.decimal :price, precision: 10, scale: 2
      t.boolean :in_print, default: true
      t.date :published_on
      t.column :loan_period, :interval
      t.timestamps
    end
  end
end

ActiveRecord::Migration.verbose = false
CreateLibrary.migrate(:up)

class Author < ActiveRecord::Base
  has_many :books, dependent: :destroy
  validates :email, uniqueness: true
end

class Book < ActiveRecord::Base
  belongs_to :author
  attribute :loan_period, :interval # Rails 7's behaviour: a Duration, read from iso_8601
end

check("tables", ActiveRecord::Base.connection.tables.sort & ["authors", "books"], ["authors", "books"])
check("columns", Book.column_names.sort, %w[author_id created_at id in_print loan_period price published_on title updated_at])
check("foreign keys", ActiveRecord::Base.connection.foreign_keys("books").map(&:to_table), ["authors"])
check("unique index", ActiveRecord::Base.connection.indexes("authors").map { |i| [i.name, i.unique] }, [["index_authors_on_email", true]])

dump = StringIO.new
ActiveRecord::SchemaDumper.dump(ActiveRecord::Base.connection, dump)
%w[create_table\ "authors" create_table\ "books" add_foreign_key\ "books",\ "authors" index_authors_on_email].each do |want|
  raise "schema dump lacks #{want}:\n#{dump.string}" unless dump.string.include?(want.tr("\\", ""))
end

ann = Author.create!(name: "Ann", email: "ann@example.com", born: 1775)
ann.books.create!(title: "Emma", price: 9.5, published_on: Date.new(1815, 12, 23), loan_period: 14.days)
ann.books.create!(title: "Persuasion", price: nil, in_print: false)
check("count", Book.where(author: ann).count, 2)
check("interval", Book.find_by(title: "Emma").loan_period, 14.days)
check("price", Book.find_by(title: "Emma").price, BigDecimal("9.5"))
check("includes", Author.includes(:books).find(ann.id).books.map(&:title).sort, ["Emma", "Persuasion"])
check("duplicate email", Author.new(name: "X", email: "ann@example.com").valid?, false)

begin
  Author.transaction do
    ann.update!(born: 1776)
    raise ActiveRecord::Rollback
  end
end
check("rolled back", ann.reload.born, 1775)

Author.transaction do
  ann.update!(born: 1777)
end
check("committed", ann.reload.born, 1777)
check("order and limit", Book.order(title: :desc).limit(1).pluck(:title), ["Persuasion"])
check("group count", Book.group(:in_print).count, { true => 1, false => 1 })

ann.destroy
check("cascade", Book.count, 0)
CreateLibrary.migrate(:down)
puts "PASS"
