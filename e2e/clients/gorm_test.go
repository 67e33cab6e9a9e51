package clients

import (
	"errors"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// GORM as Go applications use it (issue 24): AutoMigrate creates the
// schema and, run again, finds it complete (it reads information_schema
// for the foreign key it would add: before pg_constraint and
// table_constraints listed foreign keys, the second run failed with
// 42710); then create, preload, a rolled-back transaction and an update.

type gormAuthor struct {
	ID        uint   `gorm:"primaryKey"`
	Name      string `gorm:"size:100;not null"`
	Email     string `gorm:"uniqueIndex"`
	Age       int
	CreatedAt time.Time
	UpdatedAt time.Time
	Books     []gormBook `gorm:"foreignKey:AuthorID"`
}

type gormBook struct {
	ID       uint `gorm:"primaryKey"`
	AuthorID uint
	Author   gormAuthor
	Title    string `gorm:"size:200;not null"`
	Price    float64
}

func TestGORM(t *testing.T) {
	s := startServer(t)
	db, err := gorm.Open(postgres.Open(s.pgxConnString()), &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := db.AutoMigrate(&gormAuthor{}, &gormBook{}); err != nil {
			t.Fatalf("AutoMigrate, run %d: %v", i+1, err)
		}
	}
	if !db.Migrator().HasConstraint(&gormAuthor{}, "Books") {
		t.Error("HasConstraint(gormAuthor, Books): the foreign key is not seen")
	}
	if !db.Migrator().HasIndex(&gormAuthor{}, "Email") {
		t.Error("HasIndex(gormAuthor, Email): the unique index is not seen")
	}
	ann := gormAuthor{Name: "Ann", Email: "ann@example.com", Age: 30}
	if err := db.Create(&ann).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Create(&gormBook{AuthorID: ann.ID, Title: "First", Price: 9.5}).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Create(&gormAuthor{Name: "Dup", Email: "ann@example.com"}).Error; err == nil {
		t.Error("a second author with the same email was accepted")
	}
	var got gormAuthor
	if err := db.Preload("Books").First(&got, ann.ID).Error; err != nil {
		t.Fatal(err)
	}
	if len(got.Books) != 1 || got.Books[0].Title != "First" {
		t.Errorf("preloaded books: %+v", got.Books)
	}
	errRollback := errors.New("roll back")
	err = db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&got).Update("age", 31).Error; err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("transaction: %v", err)
	}
	if err := db.First(&got, ann.ID).Error; err != nil || got.Age != 30 {
		t.Errorf("after the rolled-back update: age %d, %v", got.Age, err)
	}
	if err := db.Model(&got).Update("age", 32).Error; err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.Model(&gormAuthor{}).Where("age > ?", 31).Count(&n).Error; err != nil || n != 1 {
		t.Errorf("count after update: %d, %v", n, err)
	}
}
